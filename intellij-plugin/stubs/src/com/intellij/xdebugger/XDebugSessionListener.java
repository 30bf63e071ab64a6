package com.intellij.xdebugger;

import java.util.EventListener;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/XDebugSessionListener.java
public interface XDebugSessionListener extends EventListener {
  default void sessionPaused() { }
  default void sessionResumed() { }
  default void sessionStopped() { }
  default void stackFrameChanged() { }
  default void beforeSessionResume() { }
  default void settingsChanged() { }
  default void breakpointsMuted(boolean muted) { }
}
