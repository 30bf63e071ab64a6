package com.intellij.execution.process;

import com.intellij.openapi.util.UserDataHolderBase;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/util/src/com/intellij/execution/process/ProcessHandler.java
public abstract class ProcessHandler extends UserDataHolderBase {
  protected ProcessHandler() { }
  public void destroyProcess() { }
  public void detachProcess() { }
  public abstract boolean detachIsDefault();
  public boolean isProcessTerminating() { throw new UnsupportedOperationException("stub"); }
  public boolean isProcessTerminated() { throw new UnsupportedOperationException("stub"); }
  public void addProcessListener(@NotNull ProcessListener listener) { }
  public @Nullable Integer getExitCode() { return null; }
}
