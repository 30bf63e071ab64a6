package com.intellij.xdebugger.breakpoints;

import com.intellij.util.messages.Topic;
import com.intellij.xdebugger.XDebugSession;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import java.util.EventListener;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointListener.java
public interface XBreakpointListener<B extends XBreakpoint<?>> extends EventListener {
  Topic<XBreakpointListener> TOPIC = new Topic<>("XBreakpointManager events", XBreakpointListener.class);
  default void breakpointAdded(@NotNull B breakpoint) { }
  default void breakpointRemoved(@NotNull B breakpoint) { }
  default void breakpointChanged(@NotNull B breakpoint) { }
  default void breakpointPresentationUpdated(@NotNull B breakpoint, @Nullable XDebugSession session) { }
}
