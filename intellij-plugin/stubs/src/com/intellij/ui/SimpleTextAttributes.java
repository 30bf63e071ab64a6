package com.intellij.ui;

// intellij-community: platform/util/ui/src/com/intellij/ui/SimpleTextAttributes.java
public final class SimpleTextAttributes {
}
