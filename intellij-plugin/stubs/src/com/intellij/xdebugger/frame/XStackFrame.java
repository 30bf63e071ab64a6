package com.intellij.xdebugger.frame;

import com.intellij.ui.ColoredTextContainer;
import com.intellij.xdebugger.XSourcePosition;
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java
public abstract class XStackFrame extends XValueContainer {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java (file id 17040459064 @05fc59300692e9b84414edb53858ea3e5705fc7d): read, no threading rule
  public @Nullable XDebuggerEvaluator getEvaluator() { return null; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java (file id 17040459064 @05fc59300692e9b84414edb53858ea3e5705fc7d): read, no threading rule
  public @Nullable XSourcePosition getSourcePosition() { return null; }
  // threading: any XStackFrame.java (file id 17040459064 @05fc59300692e9b84414edb53858ea3e5705fc7d): read, no rule stated; the Frames view renders on the EDT (XFramesView.java, file id 5955924087) and so does the adapter
  public void customizePresentation(@NotNull ColoredTextContainer component) { }
}
