package com.intellij.lang;

// intellij-community: platform/core-api/src/com/intellij/lang/Language.java
public abstract class Language {
}
