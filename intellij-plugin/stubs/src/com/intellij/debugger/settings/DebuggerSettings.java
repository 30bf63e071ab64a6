package com.intellij.debugger.settings;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/settings/DebuggerSettings.java
public class DebuggerSettings {
  public volatile boolean WATCH_RETURN_VALUES = false;
  DebuggerSettings() { }
  public static DebuggerSettings getInstance() { throw new UnsupportedOperationException("stub"); }
}
