package com.intellij.xdebugger.attach;

import org.jetbrains.annotations.NotNull;

import java.util.Comparator;

// intellij-community: platform/xdebugger-impl/src/com/intellij/xdebugger/attach/XAttachPresentationGroup.java
public interface XAttachPresentationGroup<T> extends Comparator<T> {
  // threading: any XAttachPresentationGroup.java @ae32b94fade4170f99f944ee2de46a046fce83a6 states no rule; a constant
  int getOrder();
  // threading: any XAttachPresentationGroup.java @ae32b94fade4170f99f944ee2de46a046fce83a6 states no rule; a constant
  public @NotNull String getGroupName();
}
