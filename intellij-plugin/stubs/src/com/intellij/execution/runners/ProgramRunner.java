package com.intellij.execution.runners;

import com.intellij.execution.configurations.RunProfile;
import com.intellij.execution.configurations.RunnerSettings;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/execution/src/com/intellij/execution/runners/ProgramRunner.java
public interface ProgramRunner<Settings extends RunnerSettings> {
  static @Nullable ProgramRunner<RunnerSettings> getRunner(@NotNull String executorId, @NotNull RunProfile settings) { throw new UnsupportedOperationException("stub"); }

  // intellij-community: platform/execution/src/com/intellij/execution/runners/ProgramRunner.java
  interface Callback {
  }
}
