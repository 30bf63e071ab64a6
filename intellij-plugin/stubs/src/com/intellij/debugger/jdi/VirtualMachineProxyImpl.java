package com.intellij.debugger.jdi;

import com.sun.jdi.VoidValue;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/jdi/VirtualMachineProxyImpl.java
public class VirtualMachineProxyImpl {
  VirtualMachineProxyImpl() { }
  public VoidValue mirrorOfVoid() { throw new UnsupportedOperationException("stub"); }
  public boolean canForceEarlyReturn() { throw new UnsupportedOperationException("stub"); }
}
