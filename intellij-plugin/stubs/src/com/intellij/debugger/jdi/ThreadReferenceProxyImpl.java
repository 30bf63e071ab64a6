package com.intellij.debugger.jdi;

import com.sun.jdi.ClassNotLoadedException;
import com.sun.jdi.IncompatibleThreadStateException;
import com.sun.jdi.InvalidTypeException;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import org.jetbrains.annotations.NotNull;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/jdi/ThreadReferenceProxyImpl.java
public final class ThreadReferenceProxyImpl extends ObjectReferenceProxyImpl {
  public ThreadReferenceProxyImpl(VirtualMachineProxyImpl virtualMachineProxy, ThreadReference threadReference) { throw new UnsupportedOperationException("stub"); }
  public @NotNull VirtualMachineProxyImpl getVirtualMachine() { throw new UnsupportedOperationException("stub"); }
  public void forceEarlyReturn(Value value) throws ClassNotLoadedException, IncompatibleThreadStateException, InvalidTypeException { throw new UnsupportedOperationException("stub"); }
}
