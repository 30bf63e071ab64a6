package com.intellij.openapi.util;

// intellij-community: platform/util-rt/src/com/intellij/openapi/util/ThrowableComputable.java
@FunctionalInterface
public interface ThrowableComputable<T, E extends Throwable> {
  T compute() throws E;
}
