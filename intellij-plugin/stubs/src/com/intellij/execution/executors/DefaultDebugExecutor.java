package com.intellij.execution.executors;

import com.intellij.execution.Executor;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/xdebugger-api/src/com/intellij/execution/executors/DefaultDebugExecutor.java
public class DefaultDebugExecutor extends Executor {
  public static final String EXECUTOR_ID = "Debug";
  @Override public @NotNull String getId() { return EXECUTOR_ID; }
  // Stub body for the JUnit fakes: the real one returns the registered instance (ExecutorRegistry).
  public static Executor getDebugExecutorInstance() { return new DefaultDebugExecutor(); }
}
