package com.intellij.execution.process;

import com.intellij.openapi.util.Key;

// intellij-community: platform/util/src/com/intellij/execution/process/ProcessOutputTypes.java
public interface ProcessOutputTypes {
  Key SYSTEM = new Key("stub");
  Key STDOUT = new Key("stub");
  Key STDERR = new Key("stub");
}
