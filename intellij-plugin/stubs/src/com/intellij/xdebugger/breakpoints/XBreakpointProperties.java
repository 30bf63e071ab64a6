package com.intellij.xdebugger.breakpoints;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/XBreakpointProperties.java
public abstract class XBreakpointProperties<T> {
}
