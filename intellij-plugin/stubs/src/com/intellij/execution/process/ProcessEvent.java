package com.intellij.execution.process;

import java.util.EventObject;

// intellij-community: platform/util/src/com/intellij/execution/process/ProcessEvent.java
public final class ProcessEvent extends EventObject {
  public ProcessEvent(ProcessHandler source) { super(source); }
  public String getText() { throw new UnsupportedOperationException("stub"); }
  public int getExitCode() { throw new UnsupportedOperationException("stub"); }
}
