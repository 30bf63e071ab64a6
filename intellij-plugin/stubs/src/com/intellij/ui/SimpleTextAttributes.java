package com.intellij.ui;

import org.jetbrains.annotations.Nullable;

import java.awt.Color;

// intellij-community: platform/core-ui/src/ui/SimpleTextAttributes.java
public final class SimpleTextAttributes {
  // The real class has no no-argument constructor.
  public SimpleTextAttributes(int style, @Nullable Color fgColor) { }
}
