package org.jetbrains.concurrency;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import java.util.function.Consumer;

// intellij-community: platform/core-api/src/org/jetbrains/concurrency/Promise.java
public interface Promise<T> {
  @NotNull Promise<T> onSuccess(@NotNull Consumer<? super T> handler);
  @NotNull Promise<T> onError(@NotNull Consumer<? super Throwable> rejected);
  @NotNull Promise<T> onProcessed(@NotNull Consumer<? super @Nullable T> processed);
}
