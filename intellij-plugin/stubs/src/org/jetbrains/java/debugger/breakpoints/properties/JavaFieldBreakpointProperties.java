package org.jetbrains.java.debugger.breakpoints.properties;

// intellij-community: java/debugger/impl/src/org/jetbrains/java/debugger/breakpoints/properties/JavaFieldBreakpointProperties.java
public class JavaFieldBreakpointProperties extends JavaBreakpointProperties<JavaFieldBreakpointProperties> {
  public boolean WATCH_MODIFICATION = true;
  public boolean WATCH_ACCESS = false;
  public String myFieldName;
  public String myClassName;

  public JavaFieldBreakpointProperties(String fieldName, String className) { myFieldName = fieldName; myClassName = className; }

  public JavaFieldBreakpointProperties() { }
}
