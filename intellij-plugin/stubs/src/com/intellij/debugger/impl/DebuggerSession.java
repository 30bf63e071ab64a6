package com.intellij.debugger.impl;

import com.intellij.debugger.engine.DebugProcessImpl;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/impl/DebuggerSession.java
public final class DebuggerSession {
  DebuggerSession() { }
  public DebugProcessImpl getProcess() { throw new UnsupportedOperationException("stub"); }
}
