package com.debuggermcp.fakes

import com.intellij.ui.ColoredTextContainer
import com.intellij.ui.SimpleTextAttributes
import com.intellij.xdebugger.frame.XStackFrame

/*
 * The Frames view's fold of hidden frames, under the platform's simple names (the plugin
 * recognises them by name: it may not link against xdebugger-impl's internal classes, and a test
 * class under the real qualified name would shadow the SDK's in the Gradle platform test):
 *  - HiddenFramesStackFrame: platform/xdebugger-impl/src/com/intellij/xdebugger/impl/frame/
 *    HiddenFramesStackFrame.kt (file id 8232468230), `@ApiStatus.Internal interface … { fun
 *    getHiddenFrames(): List<XStackFrame> }`;
 *  - HiddenStackFramesItem (HiddenStackFramesItem.java, file id 18088805953; nested in XFramesView
 *    before, file id 3727090539): an XStackFrame with no position whose text is "label.folded.frames"
 *    with the count, holding a copy of the frames; an empty list is refused.
 */
interface HiddenFramesStackFrame {
    fun getHiddenFrames(): List<XStackFrame>
}

class HiddenStackFramesItem(hiddenFrames: List<XStackFrame>) : XStackFrame(), HiddenFramesStackFrame {
    private val hidden: List<XStackFrame> = hiddenFrames.toList()

    init {
        require(hiddenFrames.isNotEmpty())
    }

    override fun customizePresentation(component: ColoredTextContainer) {
        component.append("${hidden.size} hidden frames", SimpleTextAttributes(0, null))
    }

    override fun getHiddenFrames(): List<XStackFrame> = hidden
}
