package com.intellij.xdebugger.frame;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XDebuggerTreeNodeHyperlink.java
public abstract class XDebuggerTreeNodeHyperlink {
}
