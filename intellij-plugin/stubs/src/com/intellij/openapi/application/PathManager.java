package com.intellij.openapi.application;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/util/src/com/intellij/openapi/application/PathManager.java
public final class PathManager {
  public static @NotNull String getConfigPath() { throw new UnsupportedOperationException("stub"); }
}
