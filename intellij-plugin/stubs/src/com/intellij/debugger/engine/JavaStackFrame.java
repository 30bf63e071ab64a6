package com.intellij.debugger.engine;

import com.intellij.debugger.jdi.StackFrameProxyImpl;
import com.intellij.debugger.ui.impl.watch.StackFrameDescriptorImpl;
import com.intellij.xdebugger.frame.XStackFrame;
import org.jetbrains.annotations.NotNull;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/engine/JavaStackFrame.java
public class JavaStackFrame extends XStackFrame {
  // The real constructor takes a StackFrameDescriptorImpl; the plugin never constructs a frame.
  JavaStackFrame() { }
  public @NotNull StackFrameProxyImpl getStackFrameProxy() { throw new UnsupportedOperationException("stub"); }
  public @NotNull StackFrameDescriptorImpl getDescriptor() { throw new UnsupportedOperationException("stub"); }
}
