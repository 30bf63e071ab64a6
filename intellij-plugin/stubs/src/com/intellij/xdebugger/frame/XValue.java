package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.concurrency.Promise;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValue.java
public abstract class XValue extends XValueContainer {
  public abstract void computePresentation(@NotNull XValueNode node, @NotNull XValuePlace place);
  public @Nullable String getEvaluationExpression() { return null; }
  public @NotNull Promise<XExpression> calculateEvaluationExpression() { throw new UnsupportedOperationException("stub"); }
  public @Nullable XValueModifier getModifier() { return null; }
}
