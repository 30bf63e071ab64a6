package com.intellij.xdebugger;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/AbstractDebuggerSession.java
public interface AbstractDebuggerSession {
  // threading: any AbstractDebuggerSession.java: state getter, no rule stated (unverified)
  boolean isStopped();
  boolean isPaused();
}
