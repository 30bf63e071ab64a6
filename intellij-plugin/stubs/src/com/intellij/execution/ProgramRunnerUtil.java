package com.intellij.execution;

import com.intellij.execution.runners.ExecutionEnvironment;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution-impl/src/com/intellij/execution/ProgramRunnerUtil.java
public final class ProgramRunnerUtil {
  private ProgramRunnerUtil() { }
  // threading: edt unverified: ProgramRunnerUtil.java (file id 7253371313); the Run/Debug actions call it on the EDT in a non-modal (write-safe) context and so does the adapter
  public static void executeConfiguration(@NotNull ExecutionEnvironment environment, boolean showSettings, boolean assignNewId) { }
}
