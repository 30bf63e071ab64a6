package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;

// The factory methods return named placeholders (the real ones return NON_MODAL / ANY) so the
// JUnit fakes can record which modality each invokeLater asked for.
// intellij-community: platform/core-api/src/com/intellij/openapi/application/ModalityState.java
public abstract class ModalityState {
  private static final ModalityState NON_MODAL_STUB = named("nonModal");
  private static final ModalityState ANY_STUB = named("any");
  private static ModalityState named(String name) {
    return new ModalityState() { @Override public String toString() { return name; } };
  }
  public static @NotNull ModalityState nonModal() { return NON_MODAL_STUB; }
  public static @NotNull ModalityState any() { return ANY_STUB; }
  public static @NotNull ModalityState stateForComponent(@NotNull java.awt.Component component) { throw new UnsupportedOperationException("stub"); }
}
