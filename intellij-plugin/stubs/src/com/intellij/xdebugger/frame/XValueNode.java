package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.Obsolescent;
import com.intellij.xdebugger.frame.presentation.XValuePresentation;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.Icon;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueNode.java
public interface XValueNode extends Obsolescent {
  int MAX_VALUE_LENGTH = 1000;
  void setPresentation(@Nullable Icon icon, @Nullable String type, @NotNull String value, boolean hasChildren);
  void setPresentation(@Nullable Icon icon, @NotNull XValuePresentation presentation, boolean hasChildren);
  void setFullValueEvaluator(@NotNull XFullValueEvaluator fullValueEvaluator);
}
