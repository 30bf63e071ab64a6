package com.intellij.openapi.options;

// intellij-community: platform/ide-core/src/com/intellij/openapi/options/Configurable.java
public interface Configurable extends UnnamedConfigurable {
  String getDisplayName();
}
