package com.intellij.openapi.util;

// intellij-community: platform/util/src/com/intellij/openapi/util/UserDataHolder.java
public interface UserDataHolder {
}
