package com.intellij.openapi;

// intellij-community: platform/util/src/com/intellij/openapi/Disposable.java
public interface Disposable {
  void dispose();
}
