package com.intellij.debugger.ui.breakpoints;

import org.jetbrains.java.debugger.breakpoints.properties.JavaExceptionBreakpointProperties;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/ui/breakpoints/JavaExceptionBreakpointType.java
public final class JavaExceptionBreakpointType extends JavaBreakpointTypeBase<JavaExceptionBreakpointProperties> {
  public JavaExceptionBreakpointType() { super("java-exception", "Java Exception Breakpoints"); }
}
