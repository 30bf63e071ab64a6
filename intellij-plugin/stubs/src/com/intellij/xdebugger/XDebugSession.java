package com.intellij.xdebugger;

import com.intellij.execution.configurations.RunProfile;
import com.intellij.execution.runners.ExecutionEnvironment;
import com.intellij.openapi.project.Project;
import com.intellij.xdebugger.frame.XExecutionStack;
import com.intellij.xdebugger.frame.XStackFrame;
import com.intellij.xdebugger.frame.XSuspendContext;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebugSession.java
public interface XDebugSession extends AbstractDebuggerSession {
  @NotNull Project getProject();
  @NotNull XDebugProcess getDebugProcess();
  boolean isSuspended();
  @Nullable XStackFrame getCurrentStackFrame();
  @Nullable XSuspendContext getSuspendContext();
  @Nullable XSourcePosition getCurrentPosition();
  @Nullable XSourcePosition getTopFramePosition();
  void stepOver(boolean ignoreBreakpoints);
  void stepInto();
  void stepOut();
  void forceStepInto();
  void runToPosition(@NotNull XSourcePosition position, final boolean ignoreBreakpoints);
  void pause();
  void resume();
  void setCurrentStackFrame(@NotNull XExecutionStack executionStack, @NotNull XStackFrame frame, boolean isTopFrame);
  void stop();
  void addSessionListener(@NotNull XDebugSessionListener listener);
  void removeSessionListener(@NotNull XDebugSessionListener listener);
  @NotNull String getSessionName();
  @Nullable RunProfile getRunProfile();
  @Nullable ExecutionEnvironment getExecutionEnvironment();
}
