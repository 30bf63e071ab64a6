package com.intellij.execution;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution/src/com/intellij/execution/Executor.java
public abstract class Executor {
  public abstract @NotNull String getId();
}
