package com.intellij.openapi.application;

// intellij-community: platform/core-api/src/com/intellij/openapi/application/ApplicationManager.java
public class ApplicationManager {
  public static Application getApplication() { throw new UnsupportedOperationException("stub"); }
}
