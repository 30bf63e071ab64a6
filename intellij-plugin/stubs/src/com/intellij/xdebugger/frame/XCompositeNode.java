package com.intellij.xdebugger.frame;

import com.intellij.ui.SimpleTextAttributes;
import com.intellij.xdebugger.Obsolescent;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.Icon;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XCompositeNode.java
public interface XCompositeNode extends Obsolescent {
  int MAX_CHILDREN_TO_SHOW = 100;
  void addChildren(@NotNull XValueChildrenList children, final boolean last);
  @Deprecated
  void tooManyChildren(int remaining);
  default void tooManyChildren(int remaining, @NotNull Runnable addNextChildren) { tooManyChildren(remaining); }
  void setAlreadySorted(boolean alreadySorted);
  void setErrorMessage(@NotNull String errorMessage);
  void setErrorMessage(@NotNull String errorMessage, @Nullable XDebuggerTreeNodeHyperlink link);
  void setMessage(@NotNull String message, final @Nullable Icon icon, final @NotNull SimpleTextAttributes attributes, @Nullable XDebuggerTreeNodeHyperlink link);
}
