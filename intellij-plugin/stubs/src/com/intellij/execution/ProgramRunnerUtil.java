package com.intellij.execution;

import com.intellij.execution.runners.ExecutionEnvironment;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution-impl/src/com/intellij/execution/ProgramRunnerUtil.java
public final class ProgramRunnerUtil {
  private ProgramRunnerUtil() { }
  public static void executeConfiguration(@NotNull ExecutionEnvironment environment, boolean showSettings, boolean assignNewId) { }
}
