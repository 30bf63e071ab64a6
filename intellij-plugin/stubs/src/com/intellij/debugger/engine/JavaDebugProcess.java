package com.intellij.debugger.engine;

import com.intellij.debugger.impl.DebuggerSession;
import com.intellij.xdebugger.XDebugProcess;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/engine/JavaDebugProcess.java
public class JavaDebugProcess extends XDebugProcess {
  // The real constructor is not public API for plugins (JavaDebugProcess.create); never called here.
  JavaDebugProcess() { super(null); }
  public DebuggerSession getDebuggerSession() { throw new UnsupportedOperationException("stub"); }
}
