package com.intellij.lang;

// intellij-community: platform/core-api/src/com/intellij/lang/Language.java
public abstract class Language {
  // The real constructors are all protected (each language is a singleton subclass).
  protected Language(@org.jetbrains.annotations.NotNull String id) { }
}
