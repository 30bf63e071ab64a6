package com.intellij.openapi.components;

import com.intellij.openapi.Disposable;
import com.intellij.util.messages.MessageBus;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/extensions/src/com/intellij/openapi/components/ComponentManager.java
public interface ComponentManager extends Disposable {
  @NotNull MessageBus getMessageBus();
  boolean isDisposed();
  // threading: any platform/extensions/src/com/intellij/openapi/components/ComponentManager.java (file id 3598712622): read, no thread rule; the javadoc's only condition is CancellationException once the container is disposed
  <T> T getService(@NotNull Class<T> serviceClass);
}
