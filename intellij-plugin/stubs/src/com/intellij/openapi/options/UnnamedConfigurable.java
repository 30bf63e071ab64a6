package com.intellij.openapi.options;

import org.jetbrains.annotations.Nullable;

import javax.swing.JComponent;

// intellij-community: platform/ide-core/src/com/intellij/openapi/options/UnnamedConfigurable.java
public interface UnnamedConfigurable {
  @Nullable JComponent createComponent();
  default @Nullable JComponent getPreferredFocusedComponent() { return null; }
  boolean isModified();
  void apply() throws ConfigurationException;
  default void reset() { }
  default void disposeUIResources() { }
  default void cancel() { }
}
