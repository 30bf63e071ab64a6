package com.intellij.xdebugger;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/Obsolescent.java
public interface Obsolescent {
  default boolean isObsolete() { return false; }
}
