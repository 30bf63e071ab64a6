package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueGroup.java
public abstract class XValueGroup extends XValueContainer {
  private final String myName;
  protected XValueGroup(@NotNull String name) { myName = name; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueGroup.java: a getter/value call with no threading rule known (unverified)
  public @NotNull String getName() { return myName; }
}
