package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.concurrency.Promise;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValue.java
public abstract class XValue extends XValueContainer {
  // threading: edt XValue.java (file id 3804048130): "called from the Event Dispatch thread so it should return quickly"
  public abstract void computePresentation(@NotNull XValueNode node, @NotNull XValuePlace place);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValue.java (file id 17907453841 @0219be6ae4c5c050bef75ffa5566ac9c2a21e345): read, no threading rule (only the compute* methods are "called from the Event Dispatch thread")
  public @Nullable String getEvaluationExpression() { return null; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValue.java (file id 17907453841 @0219be6ae4c5c050bef75ffa5566ac9c2a21e345): read, no annotation or rule; the result arrives through the Promise (only the compute* methods are "called from the Event Dispatch Thread")
  public @NotNull Promise<XExpression> calculateEvaluationExpression() { throw new UnsupportedOperationException("stub"); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValue.java (file id 17907453841 @0219be6ae4c5c050bef75ffa5566ac9c2a21e345): read, no threading rule (only the compute* methods are "called from the Event Dispatch thread")
  public @Nullable XValueModifier getModifier() { return null; }
}
