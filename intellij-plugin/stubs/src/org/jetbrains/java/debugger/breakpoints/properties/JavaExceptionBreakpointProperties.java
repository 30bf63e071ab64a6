package org.jetbrains.java.debugger.breakpoints.properties;

// intellij-community: java/debugger/impl/src/org/jetbrains/java/debugger/breakpoints/properties/JavaExceptionBreakpointProperties.java
public class JavaExceptionBreakpointProperties extends JavaBreakpointProperties<JavaExceptionBreakpointProperties> {
  public boolean NOTIFY_CAUGHT = true;
  public boolean NOTIFY_UNCAUGHT = true;
  public String myQualifiedName;
  public String myPackageName;

  public JavaExceptionBreakpointProperties(String qualifiedName) { myQualifiedName = qualifiedName; }

  public JavaExceptionBreakpointProperties() { }
}
