package com.intellij.execution.configurations;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/RunProfile.java
public interface RunProfile {
  @NotNull String getName();
}
