package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.Obsolescent;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import java.util.List;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XExecutionStack.java
public abstract class XExecutionStack {
  protected XExecutionStack(@NotNull String displayName) { }
  public final @NotNull String getDisplayName() { throw new UnsupportedOperationException("stub"); }
  public abstract @Nullable XStackFrame getTopFrame();
  public abstract void computeStackFrames(int firstFrameIndex, XStackFrameContainer container);

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XExecutionStack.java
  public interface XStackFrameContainer extends Obsolescent, XValueCallback {
    void addStackFrames(@NotNull List<? extends XStackFrame> stackFrames, boolean last);
  }
}
