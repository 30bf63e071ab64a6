package com.intellij.xdebugger;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/AbstractDebuggerSession.java
public interface AbstractDebuggerSession {
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/AbstractDebuggerSession.java (file id 901224440 @280b77687d90bea9eca1bcd24f54f6e9c7bb8f6d): read, two bare getters with no annotation or rule
  boolean isStopped();
  boolean isPaused();
}
