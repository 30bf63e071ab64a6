package com.intellij.xdebugger.frame;

import com.intellij.ui.ColoredTextContainer;
import com.intellij.xdebugger.XSourcePosition;
import com.intellij.xdebugger.evaluation.XDebuggerEvaluator;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XStackFrame.java
public abstract class XStackFrame extends XValueContainer {
  public @Nullable XDebuggerEvaluator getEvaluator() { return null; }
  public @Nullable XSourcePosition getSourcePosition() { return null; }
  public void customizePresentation(@NotNull ColoredTextContainer component) { }
}
