package com.intellij.openapi.util;

// intellij-community: platform/util/src/com/intellij/openapi/util/UserDataHolderBase.java
public class UserDataHolderBase implements UserDataHolder {
}
