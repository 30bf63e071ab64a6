package com.intellij.openapi.application;

import com.intellij.openapi.components.ComponentManager;
import com.intellij.openapi.util.Computable;
import org.jetbrains.annotations.NotNull;

import java.util.concurrent.Future;

// intellij-community: platform/core-api/src/com/intellij/openapi/application/Application.java
public interface Application extends ComponentManager {
  <T> T runReadAction(@NotNull Computable<T> computation);
  <T> T runWriteAction(@NotNull Computable<T> computation);
  void invokeLater(@NotNull Runnable runnable, @NotNull ModalityState state);
  @NotNull Future<?> executeOnPooledThread(@NotNull Runnable action);
}
