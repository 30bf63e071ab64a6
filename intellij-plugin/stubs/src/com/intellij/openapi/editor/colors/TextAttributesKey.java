package com.intellij.openapi.editor.colors;

// intellij-community: platform/core-api/src/com/intellij/openapi/editor/colors/TextAttributesKey.java
public final class TextAttributesKey {
  // Keys come from createTextAttributesKey(...); there is no public no-argument constructor.
  private TextAttributesKey() { }
}
