package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XNamedValue.java
public abstract class XNamedValue extends XValue {
  protected final String myName;
  protected XNamedValue(@NotNull String name) { myName = name; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XNamedValue.java: a getter/value call with no threading rule known (unverified)
  public final @NotNull String getName() { return myName; }
}
