package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.JComponent;

// intellij-community: platform/ide-core/src/com/intellij/ui/content/ContentFactory.java
public interface ContentFactory {
  static @NotNull ContentFactory getInstance() { throw new UnsupportedOperationException("stub"); }
  @NotNull Content createContent(@Nullable JComponent component, @Nullable String displayName, boolean isLockable);
}
