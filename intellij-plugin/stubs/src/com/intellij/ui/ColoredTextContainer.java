package com.intellij.ui;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.Icon;

// intellij-community: platform/core-ui/src/ui/ColoredTextContainer.java
public interface ColoredTextContainer {
  default void append(@NotNull ColoredText coloredText) { }
  void append(@NotNull String fragment, @NotNull SimpleTextAttributes attributes);
  default void append(@NotNull String fragment, @NotNull SimpleTextAttributes attributes, Object tag) { append(fragment, attributes); }
  default void setIcon(@Nullable Icon icon) { }
  default void setToolTipText(@Nullable String text) { }
}
