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
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java (file id 17088829854 @05fc59300692e9b84414edb53858ea3e5705fc7d): read, no annotation (only startSession* carry @RequiresEdt)
  public static XDebuggerManager getInstance(@NotNull Project project) { return project.getService(XDebuggerManager.class); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java (file id 17088829854 @05fc59300692e9b84414edb53858ea3e5705fc7d): read, no annotation (only startSession* carry @RequiresEdt)
  public abstract @NotNull XBreakpointManager getBreakpointManager();
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java (file id 17088829854 @05fc59300692e9b84414edb53858ea3e5705fc7d): read, no annotation (only startSession* carry @RequiresEdt)
  public abstract XDebugSession @NotNull [] getDebugSessions();
  public abstract @Nullable XDebugSession getCurrentSession();
}
