package com.intellij.xdebugger;

import com.intellij.openapi.project.Project;
import com.intellij.util.messages.Topic;
import com.intellij.xdebugger.breakpoints.XBreakpointManager;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebuggerManager.java
public abstract class XDebuggerManager {
  public static final Topic<XDebuggerManagerListener> TOPIC = new Topic<>("XDebuggerManager events", XDebuggerManagerListener.class);
  public static XDebuggerManager getInstance(@NotNull Project project) { throw new UnsupportedOperationException("stub"); }
  public abstract @NotNull XBreakpointManager getBreakpointManager();
  public abstract XDebugSession @NotNull [] getDebugSessions();
  public abstract @Nullable XDebugSession getCurrentSession();
}
