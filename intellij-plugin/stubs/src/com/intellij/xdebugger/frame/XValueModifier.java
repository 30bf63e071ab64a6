package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueModifier.java
public abstract class XValueModifier {
  public void setValue(@NotNull XExpression expression, @NotNull XModificationCallback callback) { }

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueModifier.java
  public interface XModificationCallback extends XValueCallback {
    void valueModified();
  }
}
