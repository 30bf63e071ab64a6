package com.intellij.debugger.jdi;

// intellij-community: java/debugger/impl/src/com/intellij/debugger/jdi/ObjectReferenceProxyImpl.java
public class ObjectReferenceProxyImpl extends JdiProxy {
  ObjectReferenceProxyImpl() { }
}
