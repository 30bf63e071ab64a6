package com.intellij.execution.configurations;

// intellij-community: platform/lang-api/src/com/intellij/execution/configurations/RunnerSettings.java
public interface RunnerSettings {
}
