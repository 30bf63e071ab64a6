package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.Obsolescent;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import java.util.List;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XExecutionStack.java
public abstract class XExecutionStack {
  private final String myDisplayName;
  protected XExecutionStack(@NotNull String displayName) { myDisplayName = displayName; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XExecutionStack.java (file id 4362173393 @0593210f88e6b4c2b36c06f4ccbe9e556447a051): read, final getter of a field set in the constructor, no rule
  public final @NotNull String getDisplayName() { return myDisplayName; }
  public abstract @Nullable XStackFrame getTopFrame();
  // threading: edt XExecutionStack.java (file id 89135184): "called from the Event Dispatch Thread so it should return quickly"; the Frames view calls it there (XFramesView.java, file id 5955924087)
  public abstract void computeStackFrames(int firstFrameIndex, XStackFrameContainer container);

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XExecutionStack.java
  public interface XStackFrameContainer extends Obsolescent, XValueCallback {
    void addStackFrames(@NotNull List<? extends XStackFrame> stackFrames, boolean last);
  }
}
