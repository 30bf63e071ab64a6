package com.intellij.openapi.options;

// intellij-community: platform/ide-core/src/com/intellij/openapi/options/ConfigurationException.java
public class ConfigurationException extends Exception {
  public ConfigurationException(String message) { super(message); }
}
