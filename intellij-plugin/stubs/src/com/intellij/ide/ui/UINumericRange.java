package com.intellij.ide.ui;

// Only a parameter type of Configurable.isModified(JTextField, int, UINumericRange), which a
// Configurable must be able to override.
// intellij-community: platform/core-ui/src/ide/ui/UINumericRange.java
public final class UINumericRange {
  public final int initial;
  public final int min;
  public final int max;

  public UINumericRange(int defaultValue, int minimumValue, int maximumValue) {
    initial = defaultValue;
    min = minimumValue;
    max = maximumValue;
  }
}
