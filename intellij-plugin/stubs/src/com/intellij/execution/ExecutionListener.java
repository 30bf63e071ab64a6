package com.intellij.execution;

import com.intellij.execution.configurations.RunProfile;
import com.intellij.execution.process.ProcessHandler;
import com.intellij.execution.runners.ExecutionEnvironment;
import org.jetbrains.annotations.NotNull;

import java.util.EventListener;

// intellij-community: platform/execution/src/com/intellij/execution/ExecutionListener.java
public interface ExecutionListener extends EventListener {
  default void processStartScheduled(@NotNull String executorId, @NotNull ExecutionEnvironment env) { }
  default void processStarting(@NotNull String executorId, @NotNull ExecutionEnvironment env) { }
  default void processNotStarted(@NotNull String executorId, @NotNull ExecutionEnvironment env) { }
  default void processNotStarted(@NotNull String executorId, @NotNull ExecutionEnvironment env, Throwable cause) { processNotStarted(executorId, env); }
  default void processStarting(@NotNull String executorId, @NotNull ExecutionEnvironment env, @NotNull ProcessHandler handler) { }
  default void processTerminating(@NotNull RunProfile runProfile, @NotNull ProcessHandler handler) { }
  default void processTerminated(@NotNull RunProfile runProfile, @NotNull ProcessHandler handler) { }
  default void processStarted(@NotNull String executorId, @NotNull ExecutionEnvironment env, @NotNull ProcessHandler handler) { }
  default void processTerminating(@NotNull String executorId, @NotNull ExecutionEnvironment env, @NotNull ProcessHandler handler) { }
  default void processTerminated(@NotNull String executorId, @NotNull ExecutionEnvironment env, @NotNull ProcessHandler handler, int exitCode) { }
}
