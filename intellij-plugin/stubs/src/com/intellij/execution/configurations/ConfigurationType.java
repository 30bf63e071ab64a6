package com.intellij.execution.configurations;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/ConfigurationType.java
public interface ConfigurationType {
  @NotNull String getDisplayName();
  @NotNull String getId();
}
