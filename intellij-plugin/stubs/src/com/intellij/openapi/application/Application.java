package com.intellij.openapi.application;

import com.intellij.openapi.components.ComponentManager;
import com.intellij.openapi.util.Computable;
import org.jetbrains.annotations.NotNull;

import java.util.concurrent.Future;

// intellij-community: platform/core-api/src/com/intellij/openapi/application/Application.java
public interface Application extends ComponentManager {
  <T> T runReadAction(@NotNull Computable<T> computation);
  // threading: write unverified: Application.java; write actions run on the EDT (ApplicationImpl asserts the write thread) — FakeApplication enforces it
  <T> T runWriteAction(@NotNull Computable<T> computation);
  // threading: any Application.java: callable from any thread; runs the runnable on the EDT in the given modality (unverified: read from the platform's threading docs, not the file)
  void invokeLater(@NotNull Runnable runnable, @NotNull ModalityState state);
  // threading: any Application.java (unverified)
  @NotNull Future<?> executeOnPooledThread(@NotNull Runnable action);
}
