package com.intellij.openapi.diagnostic;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/util/src/com/intellij/openapi/diagnostic/Logger.java
public abstract class Logger {
  public static @NotNull Logger getInstance(@NotNull String category) { throw new UnsupportedOperationException("stub"); }
  public static @NotNull Logger getInstance(@NotNull Class<?> cl) { throw new UnsupportedOperationException("stub"); }
  // The one-argument overloads are concrete; the abstract ones take a Throwable.
  public void debug(String message) { }
  public void info(String message) { }
  public void warn(String message) { }
  public abstract void warn(String message, @Nullable Throwable t);
}
