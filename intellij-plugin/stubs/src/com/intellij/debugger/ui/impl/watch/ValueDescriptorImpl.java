package com.intellij.debugger.ui.impl.watch;

import com.sun.jdi.Value;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/ui/impl/watch/ValueDescriptorImpl.java
public abstract class ValueDescriptorImpl extends NodeDescriptorImpl {
  ValueDescriptorImpl() { }
  public boolean isValueReady() { throw new UnsupportedOperationException("stub"); }
  public boolean isValueValid() { throw new UnsupportedOperationException("stub"); }
  public Value getValue() { throw new UnsupportedOperationException("stub"); }
  public @org.jetbrains.annotations.Nullable String getDeclaredType() { throw new UnsupportedOperationException("stub"); }
}
