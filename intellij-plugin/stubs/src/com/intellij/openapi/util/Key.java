package com.intellij.openapi.util;

// intellij-community: platform/util/src/com/intellij/openapi/util/Key.java
public class Key<T> {
}
