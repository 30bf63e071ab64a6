package com.intellij.execution.configurations;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/RunConfiguration.java
public interface RunConfiguration extends RunProfile {
  // RunConfigurationBase overrides it with its options' "Allow multiple instances" (file id 6580618322).
  default boolean isAllowRunningInParallel() { return false; }
}
