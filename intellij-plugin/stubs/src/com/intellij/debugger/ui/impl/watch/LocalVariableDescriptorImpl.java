package com.intellij.debugger.ui.impl.watch;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/ui/impl/watch/LocalVariableDescriptorImpl.java
public class LocalVariableDescriptorImpl extends ValueDescriptorImpl {
  LocalVariableDescriptorImpl() { }
}
