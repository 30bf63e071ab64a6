package org.jetbrains.java.debugger.breakpoints.properties;

import com.intellij.xdebugger.breakpoints.XBreakpointProperties;

// intellij-community: java/debugger/impl/src/org/jetbrains/java/debugger/breakpoints/properties/JavaBreakpointProperties.java
public class JavaBreakpointProperties<T extends JavaBreakpointProperties> extends XBreakpointProperties<T> {
  public boolean isCOUNT_FILTER_ENABLED() { throw new UnsupportedOperationException("stub"); }
  public boolean setCOUNT_FILTER_ENABLED(boolean COUNT_FILTER_ENABLED) { throw new UnsupportedOperationException("stub"); }
  public int getCOUNT_FILTER() { throw new UnsupportedOperationException("stub"); }
  public boolean setCOUNT_FILTER(int COUNT_FILTER) { throw new UnsupportedOperationException("stub"); }
}
