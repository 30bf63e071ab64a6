package com.intellij.openapi.util;

// intellij-community: platform/util/src/com/intellij/openapi/util/Computable.java
@FunctionalInterface
public interface Computable<T> {
  T compute();
}
