package com.intellij.execution.configurations;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/RuntimeConfigurationError.java
public class RuntimeConfigurationError extends RuntimeConfigurationException {
  public RuntimeConfigurationError(String message) { super(message); }
}
