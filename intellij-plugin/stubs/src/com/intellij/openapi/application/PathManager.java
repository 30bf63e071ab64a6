package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/util/src/com/intellij/openapi/application/PathManager.java
public final class PathManager {
  public static @Nullable String getJarPathForClass(@NotNull Class<?> aClass) { throw new UnsupportedOperationException("stub"); }
  public static @NotNull String getConfigPath() { throw new UnsupportedOperationException("stub"); }
}
