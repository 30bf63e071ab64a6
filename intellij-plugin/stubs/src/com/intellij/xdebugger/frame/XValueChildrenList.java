package com.intellij.xdebugger.frame;

import org.jetbrains.annotations.NotNull;

import java.util.ArrayList;
import java.util.List;

// Stub bodies keep what was added (as the real class does) so the JUnit fakes can build batches:
// values in order, top values (shown first by the Variables view), top and bottom groups.
// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java
public class XValueChildrenList {
  private final List<String> myNames = new ArrayList<>();
  private final List<XValue> myValues = new ArrayList<>();
  private final List<XNamedValue> myTopValues = new ArrayList<>();
  private final List<XValueGroup> myTopGroups = new ArrayList<>();
  private final List<XValueGroup> myBottomGroups = new ArrayList<>();

  public XValueChildrenList() { }
  public void add(String name, @NotNull XValue value) { myNames.add(name); myValues.add(value); }
  public void add(@NotNull XNamedValue value) { add(value.getName(), value); }
  public void addTopValue(@NotNull XNamedValue value) { myTopValues.add(value); }
  public void addTopGroup(@NotNull XValueGroup group) { myTopGroups.add(group); }
  public void addBottomGroup(@NotNull XValueGroup group) { myBottomGroups.add(group); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java (file id 21795643909): read, plain lists with no threading rule
  public int size() { return myNames.size(); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java (file id 21795643909): read, plain lists with no threading rule
  public String getName(int i) { return myNames.get(i); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java (file id 21795643909): read, plain lists with no threading rule
  public XValue getValue(int i) { return myValues.get(i); }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java (file id 21795643909): read, plain lists with no threading rule
  public @NotNull List<XNamedValue> getTopValues() { return myTopValues; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java (file id 21795643909): read, plain lists with no threading rule
  public List<XValueGroup> getTopGroups() { return myTopGroups; }
  // threading: any platform/xdebugger-api/src/com/intellij/xdebugger/frame/XValueChildrenList.java (file id 21795643909): read, plain lists with no threading rule
  public List<XValueGroup> getBottomGroups() { return myBottomGroups; }
}
