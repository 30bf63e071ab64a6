package com.intellij.execution.configurations;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/RunConfiguration.java
public interface RunConfiguration extends RunProfile {
}
