package com.intellij.openapi.actionSystem;

// intellij-community: platform/core-ui/src/openapi/actionSystem/DataContext.java
public interface DataContext {
}
