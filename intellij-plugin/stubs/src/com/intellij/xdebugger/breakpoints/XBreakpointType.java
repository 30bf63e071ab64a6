package com.intellij.xdebugger.breakpoints;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointType.java
public abstract class XBreakpointType<B extends XBreakpoint<P>, P extends XBreakpointProperties> {
  // As the real one: the id given to the constructor (the JUnit fakes' types are looked up by it).
  private final String myId;
  protected XBreakpointType(@NotNull String id, @NotNull String title) { myId = id; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointType.java: returns the final field set by the constructor, no rule
  public final @NotNull String getId() { return myId; }
  public @NotNull String getTitle() { throw new UnsupportedOperationException("stub"); }
}
