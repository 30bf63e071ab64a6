package com.intellij.xdebugger.breakpoints;

import com.intellij.openapi.util.UserDataHolder;
import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java
public interface XBreakpoint<P extends XBreakpointProperties> extends UserDataHolder {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  boolean isEnabled();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  void setEnabled(boolean enabled);
  @NotNull XBreakpointType<?, P> getType();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  P getProperties();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  @NotNull SuspendPolicy getSuspendPolicy();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  void setSuspendPolicy(@NotNull SuspendPolicy policy);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  @Nullable XExpression getLogExpressionObject();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  void setLogExpressionObject(@Nullable XExpression expression);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  @Nullable XExpression getConditionExpression();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java (file id 4132869708): read, the interface states no threading rule
  void setConditionExpression(@Nullable XExpression condition);
}
