package com.intellij.openapi.application;

import com.intellij.openapi.components.ComponentManager;
import com.intellij.openapi.util.Computable;
import org.jetbrains.annotations.NotNull;

import java.util.concurrent.Future;

// intellij-community: platform/core-api/src/com/intellij/openapi/application/Application.java
public interface Application extends ComponentManager {
  <T> T runReadAction(@NotNull Computable<T> computation);
  // threading: write platform/core-api/src/com/intellij/openapi/application/Application.java (file id 28438179925 @002db14be9c3c25520edd1aea93c31603a9a3a50): read, "Must be called from the Swing dispatch thread"; ApplicationImpl.java (file id 3578328660) checkWriteActionAllowedOnCurrentThread throws "Background write action is not permitted on this thread … or switch to EDT" off the EDT — FakeApplication.runWriteAction enforces it
  <T> T runWriteAction(@NotNull Computable<T> computation);
  // threading: any platform/core-api/src/com/intellij/openapi/application/Application.java (file id 28438179925 @002db14be9c3c25520edd1aea93c31603a9a3a50): read, no caller rule: "Causes runnable.run() to be executed asynchronously on the AWT event dispatching thread, when IDEA is in the specified modality state (or a state with less modal dialogs open)" — FakeApplication queues it so (a modal loop runs only any())
  void invokeLater(@NotNull Runnable runnable, @NotNull ModalityState state);
  // threading: any platform/core-api/src/com/intellij/openapi/application/Application.java (file id 28438179925 @002db14be9c3c25520edd1aea93c31603a9a3a50): read, no caller rule: "Requests pooled thread to execute the action … Unbounded … Application-wide"
  @NotNull Future<?> executeOnPooledThread(@NotNull Runnable action);
}
