package com.intellij.openapi.project;

// intellij-community: platform/core-api/src/com/intellij/openapi/project/DumbAware.java
public interface DumbAware extends PossiblyDumbAware {
}
