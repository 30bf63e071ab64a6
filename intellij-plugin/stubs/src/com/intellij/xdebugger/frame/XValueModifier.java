package com.intellij.xdebugger.frame;

import com.intellij.xdebugger.XExpression;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueModifier.java
public abstract class XValueModifier {
  // threading: edt XValueModifier.java (file id 54542892460): "called from the Event Dispatch Thread so it should return quickly"
  public void setValue(@NotNull XExpression expression, @NotNull XModificationCallback callback) { }

  // intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueModifier.java
  public interface XModificationCallback extends XValueCallback {
    void valueModified();
  }
}
