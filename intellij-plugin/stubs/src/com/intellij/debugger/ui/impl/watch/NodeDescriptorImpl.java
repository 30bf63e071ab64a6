package com.intellij.debugger.ui.impl.watch;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/ui/impl/watch/NodeDescriptorImpl.java
public abstract class NodeDescriptorImpl {
  NodeDescriptorImpl() { }
}
