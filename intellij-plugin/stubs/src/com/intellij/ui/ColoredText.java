package com.intellij.ui;

// Only the parameter type of ColoredTextContainer.append(ColoredText), which an implementation
// of ColoredTextContainer can override.
// intellij-community: platform/core-ui/src/ui/ColoredText.java
public interface ColoredText {
}
