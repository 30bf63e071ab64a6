package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.Obsolescent;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import java.util.List;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XSuspendContext.java
public abstract class XSuspendContext {
  public @Nullable XExecutionStack getActiveExecutionStack() { return null; }
  public XExecutionStack @NotNull [] getExecutionStacks() { throw new UnsupportedOperationException("stub"); }
  public void computeExecutionStacks(XExecutionStackContainer container) { }

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XSuspendContext.java
  public interface XExecutionStackContainer extends XValueCallback, Obsolescent {
    void addExecutionStack(@NotNull List<? extends XExecutionStack> executionStacks, final boolean last);
  }
}
