package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XNamedValue.java
public abstract class XNamedValue extends XValue {
  protected final String myName;
  protected XNamedValue(@NotNull String name) { myName = name; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XNamedValue.java (file id 7215083467 @1e51e91f3a31729149d31672e78d812c2f9a1957): read, final getter of a final field, no rule
  public final @NotNull String getName() { return myName; }
}
