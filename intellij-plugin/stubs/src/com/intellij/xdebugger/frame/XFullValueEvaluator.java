package com.intellij.xdebugger.frame;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XFullValueEvaluator.java
public abstract class XFullValueEvaluator {
  protected XFullValueEvaluator() { }
}
