package com.intellij.debugger.impl.attach;

import com.intellij.execution.configurations.RemoteConnection;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/impl/attach/PidRemoteConnection.java
public class PidRemoteConnection extends RemoteConnection {
  public PidRemoteConnection(String pid) { super(false, null, null, false); }
  public String getPid() { throw new UnsupportedOperationException("stub"); }
}
