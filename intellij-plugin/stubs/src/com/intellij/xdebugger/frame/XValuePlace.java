package com.intellij.xdebugger.frame;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValuePlace.java
public enum XValuePlace {
  TREE, TOOLTIP
}
