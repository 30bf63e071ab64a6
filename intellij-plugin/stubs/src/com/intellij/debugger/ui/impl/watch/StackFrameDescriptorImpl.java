package com.intellij.debugger.ui.impl.watch;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/ui/impl/watch/StackFrameDescriptorImpl.java
public class StackFrameDescriptorImpl extends NodeDescriptorImpl {
  StackFrameDescriptorImpl() { }
  public int getUiIndex() { throw new UnsupportedOperationException("stub"); }
}
