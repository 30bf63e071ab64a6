package com.intellij.debugger.ui.breakpoints;

import com.intellij.xdebugger.breakpoints.XBreakpoint;
import com.intellij.xdebugger.breakpoints.XBreakpointType;
import org.jetbrains.java.debugger.breakpoints.properties.JavaExceptionBreakpointProperties;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/ui/breakpoints/JavaExceptionBreakpointType.java
public class JavaExceptionBreakpointType extends XBreakpointType<XBreakpoint<JavaExceptionBreakpointProperties>, JavaExceptionBreakpointProperties> {
}
