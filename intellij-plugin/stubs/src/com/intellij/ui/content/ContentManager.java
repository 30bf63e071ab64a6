package com.intellij.ui.content;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/ide-core/src/com/intellij/ui/content/ContentManager.java
public interface ContentManager {
  void addContent(@NotNull Content content);
}
