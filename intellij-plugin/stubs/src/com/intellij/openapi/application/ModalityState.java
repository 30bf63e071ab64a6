package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/core-api/src/com/intellij/openapi/application/ModalityState.java
public abstract class ModalityState {
  public static @NotNull ModalityState nonModal() { throw new UnsupportedOperationException("stub"); }
  public static @NotNull ModalityState any() { throw new UnsupportedOperationException("stub"); }
  public static @NotNull ModalityState stateForComponent(@NotNull java.awt.Component component) { throw new UnsupportedOperationException("stub"); }
}
