package com.intellij.execution;

import com.intellij.execution.runners.ExecutionEnvironment;
import com.intellij.execution.runners.ProgramRunner;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/lang-api/src/com/intellij/execution/ProgramRunnerUtil.java
public final class ProgramRunnerUtil {
  public static @Nullable ProgramRunner<?> getRunner(@NotNull String executorId, @Nullable RunnerAndConfigurationSettings configuration) { throw new UnsupportedOperationException("stub"); }
  public static void executeConfiguration(@NotNull ExecutionEnvironment environment, boolean showSettings, boolean assignNewId) { }
}
