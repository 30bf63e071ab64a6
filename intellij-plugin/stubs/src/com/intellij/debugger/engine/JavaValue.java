package com.intellij.debugger.engine;

import com.intellij.debugger.ui.impl.watch.ValueDescriptorImpl;
import com.intellij.xdebugger.frame.XNamedValue;
import com.intellij.xdebugger.frame.XValueNode;
import com.intellij.xdebugger.frame.XValuePlace;
import org.jetbrains.annotations.NotNull;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/engine/JavaValue.java
public class JavaValue extends XNamedValue {
  JavaValue() { super(""); }
  public void computePresentation(@NotNull XValueNode node, @NotNull XValuePlace place) { throw new UnsupportedOperationException("stub"); }
  public @NotNull ValueDescriptorImpl getDescriptor() { throw new UnsupportedOperationException("stub"); }
}
