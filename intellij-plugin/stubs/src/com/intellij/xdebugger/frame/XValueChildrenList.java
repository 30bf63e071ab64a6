package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

import java.util.List;

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java
public class XValueChildrenList {
  public int size() { throw new UnsupportedOperationException("stub"); }
  public String getName(int i) { throw new UnsupportedOperationException("stub"); }
  public XValue getValue(int i) { throw new UnsupportedOperationException("stub"); }
  public List<XValueGroup> getTopGroups() { throw new UnsupportedOperationException("stub"); }
  public List<XValueGroup> getBottomGroups() { throw new UnsupportedOperationException("stub"); }
}
