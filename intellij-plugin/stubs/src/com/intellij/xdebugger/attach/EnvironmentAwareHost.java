package com.intellij.xdebugger.attach;

// intellij-community: platform/xdebugger-impl/src/com/intellij/xdebugger/attach/EnvironmentAwareHost.java
public abstract class EnvironmentAwareHost implements XAttachHost {
}
