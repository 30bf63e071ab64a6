package com.intellij.openapi.project;

// intellij-community: platform/core-api/src/com/intellij/openapi/project/PossiblyDumbAware.java
public interface PossiblyDumbAware {
  default boolean isDumbAware() { return this instanceof DumbAware; }
}
