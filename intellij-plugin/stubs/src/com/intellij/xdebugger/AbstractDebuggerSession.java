package com.intellij.xdebugger;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/AbstractDebuggerSession.java
public interface AbstractDebuggerSession {
  boolean isStopped();
  boolean isPaused();
}
