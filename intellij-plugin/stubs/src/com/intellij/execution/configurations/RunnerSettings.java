package com.intellij.execution.configurations;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/RunnerSettings.java
public interface RunnerSettings {
}
