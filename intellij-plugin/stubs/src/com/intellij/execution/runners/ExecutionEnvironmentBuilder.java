package com.intellij.execution.runners;

import com.intellij.execution.Executor;
import com.intellij.execution.RunnerAndConfigurationSettings;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/execution/src/com/intellij/execution/runners/ExecutionEnvironmentBuilder.java
public final class ExecutionEnvironmentBuilder {
  public static @Nullable ExecutionEnvironmentBuilder createOrNull(@NotNull Executor executor, @NotNull RunnerAndConfigurationSettings settings) { throw new UnsupportedOperationException("stub"); }
  public @NotNull ExecutionEnvironment build() { throw new UnsupportedOperationException("stub"); }
}
