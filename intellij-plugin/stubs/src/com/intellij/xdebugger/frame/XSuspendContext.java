package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.Obsolescent;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import java.util.List;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XSuspendContext.java
public abstract class XSuspendContext {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XSuspendContext.java (file id 902830395): read, no threading rule
  public @Nullable XExecutionStack getActiveExecutionStack() { return null; }
  // The real default: no stacks known synchronously.
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XSuspendContext.java (file id 902830395): read, no threading rule
  public XExecutionStack @NotNull [] getExecutionStacks() { return new XExecutionStack[0]; }
  // threading: edt XSuspendContext.java (file id 902830395) read: states no rule; edt because the Frames view calls it on the EDT (XFramesView.java, file id 5955924087) and so does the adapter
  public void computeExecutionStacks(XExecutionStackContainer container) { }

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XSuspendContext.java
  public interface XExecutionStackContainer extends XValueCallback, Obsolescent {
    void addExecutionStack(@NotNull List<? extends XExecutionStack> executionStacks, final boolean last);
  }
}
