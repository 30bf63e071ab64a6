package com.intellij.execution.process;

import com.intellij.openapi.util.Key;

// intellij-community: platform/util/src/com/intellij/execution/process/ProcessOutputTypes.java
public class ProcessOutputTypes {
  public static final Key SYSTEM = new Key("stub");
  public static final Key STDOUT = new Key("stub");
  public static final Key STDERR = new Key("stub");
}
