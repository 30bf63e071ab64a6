package com.intellij.openapi.util;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/util/src/com/intellij/openapi/util/Key.java
public class Key<T> {
  public Key(@NotNull String name) { }
}
