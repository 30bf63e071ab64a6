package com.intellij.execution.configurations;

import com.intellij.openapi.options.ConfigurationException;

// intellij-community: platform/execution/src/com/intellij/execution/configurations/RuntimeConfigurationException.java
public class RuntimeConfigurationException extends ConfigurationException {
  public RuntimeConfigurationException(String message) { super(message); }
}
