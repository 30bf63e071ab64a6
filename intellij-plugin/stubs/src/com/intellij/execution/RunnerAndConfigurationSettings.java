package com.intellij.execution;

import com.intellij.execution.configurations.ConfigurationType;
import com.intellij.execution.configurations.RunConfiguration;
import com.intellij.execution.configurations.RuntimeConfigurationException;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/execution/src/com/intellij/execution/RunnerAndConfigurationSettings.java
public interface RunnerAndConfigurationSettings {
  @NotNull ConfigurationType getType();
  void checkSettings(@Nullable Executor executor) throws RuntimeConfigurationException;
  @NotNull RunConfiguration getConfiguration();
  @NotNull String getName();
  void setName(String name);
  boolean isTemporary();
  @Nullable String getFolderName();
}
