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
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @NotNull Project getProject();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @NotNull XDebugProcess getDebugProcess();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  boolean isSuspended();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @Nullable XStackFrame getCurrentStackFrame();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @Nullable XSuspendContext getSuspendContext();
  @Nullable XSourcePosition getCurrentPosition();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @Nullable XSourcePosition getTopFramePosition();
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void stepOver(boolean ignoreBreakpoints);
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void stepInto();
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void stepOut();
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void forceStepInto();
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void runToPosition(@NotNull XSourcePosition position, final boolean ignoreBreakpoints);
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void pause();
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void resume();
  // threading: edt XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule; the platform's actions call it on the EDT (XDebuggerSupport step/resume handlers, file id 8793050026; XFramesView.processFrameSelection, file id 5955924087) and so does the adapter
  void setCurrentStackFrame(@NotNull XExecutionStack executionStack, @NotNull XStackFrame frame, boolean isTopFrame);
  // threading: any XDebugSessionImpl.stop (XDebugSessionImpl.kt, file id 3494500063) states no rule: it only detaches or destroys the process handler, which ExecutionManagerImpl.stopProcess does off the EDT (file id 1646897139)
  void stop();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  void addSessionListener(@NotNull XDebugSessionListener listener);
  void removeSessionListener(@NotNull XDebugSessionListener listener);
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @NotNull String getSessionName();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @Nullable RunProfile getRunProfile();
  // threading: any XDebugSession.java @05763acb6b029f8a72d0dc95b1ed730fa43be64d states no rule (state getter)
  @Nullable ExecutionEnvironment getExecutionEnvironment();
}
