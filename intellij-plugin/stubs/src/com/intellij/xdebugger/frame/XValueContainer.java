package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueContainer.java
public abstract class XValueContainer {
  // threading: edt XValueContainer.java (file id 3887467913): "called from the Event Dispatch thread so it should return quickly"
  public void computeChildren(@NotNull XCompositeNode node) { }
}
