package com.intellij.debugger.engine;

import com.intellij.debugger.jdi.ThreadReferenceProxyImpl;
import com.intellij.openapi.util.UserDataHolderBase;
import org.jetbrains.annotations.NotNull;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/engine/DebugProcessImpl.java
public abstract class DebugProcessImpl extends UserDataHolderBase {
  DebugProcessImpl() { }
  public @NotNull DebuggerManagerThreadImpl getManagerThread() { throw new UnsupportedOperationException("stub"); }
  public void startWatchingMethodReturn(ThreadReferenceProxyImpl thread) { throw new UnsupportedOperationException("stub"); }
  public void setWatchMethodReturnValuesEnabled(boolean enabled) { throw new UnsupportedOperationException("stub"); }
  public boolean canGetMethodReturnValue() { throw new UnsupportedOperationException("stub"); }
  public com.intellij.execution.configurations.RemoteConnection getConnection() { throw new UnsupportedOperationException("stub"); }
}
