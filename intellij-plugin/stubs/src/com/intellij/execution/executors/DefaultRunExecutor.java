package com.intellij.execution.executors;

import com.intellij.execution.Executor;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution/src/com/intellij/execution/executors/DefaultRunExecutor.java
public class DefaultRunExecutor extends Executor {
  public static final String EXECUTOR_ID = "Run";
  @Override public @NotNull String getId() { return EXECUTOR_ID; }
  // Stub body for the JUnit fakes: the real one returns the registered instance (ExecutorRegistry).
  public static @NotNull Executor getRunExecutorInstance() { return new DefaultRunExecutor(); }
}
