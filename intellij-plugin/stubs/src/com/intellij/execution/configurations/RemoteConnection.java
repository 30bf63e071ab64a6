package com.intellij.execution.configurations;

// intellij-community: java/execution/openapi/src/com/intellij/execution/configurations/RemoteConnection.java
public class RemoteConnection {
  public RemoteConnection(boolean useSockets, String hostName, String address, boolean serverMode) { }
}
