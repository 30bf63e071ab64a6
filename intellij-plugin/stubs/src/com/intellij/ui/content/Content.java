package com.intellij.ui.content;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/ide-core/src/com/intellij/ui/content/Content.java
public interface Content {
  void setDisposer(@Nullable Disposable disposer);
}
