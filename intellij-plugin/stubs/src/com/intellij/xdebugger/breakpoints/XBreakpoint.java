package com.intellij.xdebugger.breakpoints;

import com.intellij.openapi.util.UserDataHolder;
import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java
public interface XBreakpoint<P extends XBreakpointProperties> extends UserDataHolder {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  boolean isEnabled();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  void setEnabled(boolean enabled);
  @NotNull XBreakpointType<?, P> getType();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  P getProperties();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  @NotNull SuspendPolicy getSuspendPolicy();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  void setSuspendPolicy(@NotNull SuspendPolicy policy);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  @Nullable XExpression getLogExpressionObject();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  void setLogExpressionObject(@Nullable XExpression expression);
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  @Nullable XExpression getConditionExpression();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpoint.java: a getter/value call with no threading rule known (unverified)
  void setConditionExpression(@Nullable XExpression condition);
}
