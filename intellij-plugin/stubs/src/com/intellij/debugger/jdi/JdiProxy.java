package com.intellij.debugger.jdi;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/jdi/JdiProxy.java
public abstract class JdiProxy {
  JdiProxy() { }
}
