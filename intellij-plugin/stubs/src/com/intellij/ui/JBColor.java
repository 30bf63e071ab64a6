package com.intellij.ui;

import java.awt.Color;

// intellij-community: platform/util/ui/src/com/intellij/ui/JBColor.java
public class JBColor extends Color {
  public JBColor(int rgb, int darkRGB) { super(rgb); }
}
