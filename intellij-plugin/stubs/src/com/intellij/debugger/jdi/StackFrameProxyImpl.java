package com.intellij.debugger.jdi;

import com.sun.jdi.Location;
import org.jetbrains.annotations.NotNull;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/jdi/StackFrameProxyImpl.java
public class StackFrameProxyImpl extends JdiProxy {
  StackFrameProxyImpl() { }
  public @NotNull Location location() { throw new UnsupportedOperationException("stub"); }
  public @NotNull ThreadReferenceProxyImpl threadProxy() { throw new UnsupportedOperationException("stub"); }
}
