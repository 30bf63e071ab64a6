package com.intellij.openapi.components;

import com.intellij.openapi.Disposable;
import com.intellij.util.messages.MessageBus;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/extensions/src/com/intellij/openapi/components/ComponentManager.java
public interface ComponentManager extends Disposable {
  @NotNull MessageBus getMessageBus();
  boolean isDisposed();
  // threading: any ComponentManager.java: service lookup, thread-safe (unverified)
  <T> T getService(@NotNull Class<T> serviceClass);
}
