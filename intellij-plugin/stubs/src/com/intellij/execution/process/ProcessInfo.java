package com.intellij.execution.process;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/util/src/com/intellij/execution/process/ProcessInfo.java
public class ProcessInfo {
  private final int myPid;
  private final String myCommandLine;
  private final String myExecutableName;

  // As the real one (file id 8566211654): the values given.
  public ProcessInfo(int pid, @NotNull String commandLine, @NotNull String executableName, @NotNull String args) {
    myPid = pid;
    myCommandLine = commandLine;
    myExecutableName = executableName;
  }

  public int getPid() { return myPid; }
  public @NotNull String getCommandLine() { return myCommandLine; }
  public @NotNull String getExecutableName() { return myExecutableName; }
}
