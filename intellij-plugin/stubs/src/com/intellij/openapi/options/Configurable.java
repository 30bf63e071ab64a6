package com.intellij.openapi.options;

import com.intellij.ide.ui.UINumericRange;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.JTextField;
import javax.swing.JToggleButton;

// intellij-community: platform/ide-core/src/com/intellij/openapi/options/Configurable.java
public interface Configurable extends UnnamedConfigurable {
  String getDisplayName();
  default @Nullable String getHelpTopic() { return null; }
  default void focusOn(@NotNull String label) { }
  default boolean isModified(@NotNull JTextField textField, @NotNull String value) { return false; }
  default boolean isModified(@NotNull JTextField textField, int value, @NotNull UINumericRange range) { return false; }
  default boolean isModified(@NotNull JToggleButton toggleButton, boolean value) { return false; }
}
