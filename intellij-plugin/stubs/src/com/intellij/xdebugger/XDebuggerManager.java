package com.intellij.xdebugger;

import com.intellij.openapi.project.Project;
import com.intellij.util.messages.Topic;
import com.intellij.xdebugger.breakpoints.XBreakpointManager;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java
public abstract class XDebuggerManager {
  public static final Topic<XDebuggerManagerListener> TOPIC = new Topic<>("XDebuggerManager events", XDebuggerManagerListener.class);
  // As the real one: a project service (the JUnit fakes register theirs).
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java: a getter/value call with no threading rule known (unverified)
  public static XDebuggerManager getInstance(@NotNull Project project) { return project.getService(XDebuggerManager.class); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java: a getter/value call with no threading rule known (unverified)
  public abstract @NotNull XBreakpointManager getBreakpointManager();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java: a getter/value call with no threading rule known (unverified)
  public abstract XDebugSession @NotNull [] getDebugSessions();
  public abstract @Nullable XDebugSession getCurrentSession();
}
