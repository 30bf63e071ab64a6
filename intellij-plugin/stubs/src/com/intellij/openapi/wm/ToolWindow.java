package com.intellij.openapi.wm;

import com.intellij.ui.content.ContentManager;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/ide-core/src/com/intellij/openapi/wm/ToolWindow.java
public interface ToolWindow {
  @NotNull ContentManager getContentManager();
}
