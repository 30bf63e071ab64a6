package com.intellij.xdebugger.breakpoints;

import com.intellij.openapi.util.UserDataHolder;
import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java
public interface XBreakpoint<P extends XBreakpointProperties> extends UserDataHolder {
  boolean isEnabled();
  void setEnabled(boolean enabled);
  @NotNull XBreakpointType<?, P> getType();
  P getProperties();
  @NotNull SuspendPolicy getSuspendPolicy();
  void setSuspendPolicy(@NotNull SuspendPolicy policy);
  @Nullable XExpression getLogExpressionObject();
  void setLogExpressionObject(@Nullable XExpression expression);
  @Nullable XExpression getConditionExpression();
  void setConditionExpression(@Nullable XExpression condition);
}
