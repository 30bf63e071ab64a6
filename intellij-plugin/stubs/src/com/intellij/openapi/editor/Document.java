package com.intellij.openapi.editor;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/core-api/src/com/intellij/openapi/editor/Document.java
public interface Document {
  default @NotNull String getText() { throw new UnsupportedOperationException("stub"); }
}
