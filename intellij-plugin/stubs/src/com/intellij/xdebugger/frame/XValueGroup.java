package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueGroup.java
public abstract class XValueGroup extends XValueContainer {
  private final String myName;
  protected XValueGroup(@NotNull String name) { myName = name; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueGroup.java (file id 8151432000 @15343567cf7809eb623839598d6437db1454e59b): read, getter of a final field, no rule
  public @NotNull String getName() { return myName; }
}
