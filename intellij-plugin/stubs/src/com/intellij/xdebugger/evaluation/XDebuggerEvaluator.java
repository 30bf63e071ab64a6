package com.intellij.xdebugger.evaluation;

import com.intellij.xdebugger.XExpression;
import com.intellij.xdebugger.XSourcePosition;
import com.intellij.xdebugger.frame.XValue;
import com.intellij.xdebugger.frame.XValueCallback;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/evaluation/XDebuggerEvaluator.java
public abstract class XDebuggerEvaluator {
  // threading: edt XDebuggerEvaluator.java (file id 10237618252 @0219be6ae4c5c050bef75ffa5566ac9c2a21e345) read: states no rule ("Start evaluating expression"); edt because the Evaluate dialog calls it on the EDT (XDebuggerEvaluationDialog.java, file id 275328596) and so does the adapter
  public void evaluate(@NotNull XExpression expression, @NotNull XEvaluationCallback callback, @Nullable XSourcePosition expressionPosition) { }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/evaluation/XDebuggerEvaluator.java (file id 10237618252): read, no threading rule
  public boolean isCodeFragmentEvaluationSupported() { return true; }

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/evaluation/XDebuggerEvaluator.java
  public interface XEvaluationCallback extends XValueCallback {
    void evaluated(@NotNull XValue result);
    default void invalidExpression(@NotNull String error) { errorOccurred(error); }
  }
}
