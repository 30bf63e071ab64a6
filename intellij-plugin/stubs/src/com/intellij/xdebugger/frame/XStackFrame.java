package com.intellij.xdebugger.frame;

import com.intellij.ui.ColoredTextContainer;
import com.intellij.xdebugger.XSourcePosition;
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java
public abstract class XStackFrame extends XValueContainer {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java: a getter/value call with no threading rule known (unverified)
  public @Nullable XDebuggerEvaluator getEvaluator() { return null; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java: a getter/value call with no threading rule known (unverified)
  public @Nullable XSourcePosition getSourcePosition() { return null; }
  // threading: edt unverified: a Swing renderer API (ColoredTextContainer) in XStackFrame.java; the Frames view renders on the EDT (XFramesView.java, file id 5955924087) and so does the adapter
  public void customizePresentation(@NotNull ColoredTextContainer component) { }
}
