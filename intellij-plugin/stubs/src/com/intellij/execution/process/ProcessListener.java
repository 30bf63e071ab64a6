package com.intellij.execution.process;

import com.intellij.openapi.util.Key;
import org.jetbrains.annotations.NotNull;

import java.util.EventListener;

// intellij-community: platform/util/src/com/intellij/execution/process/ProcessListener.java
public interface ProcessListener extends EventListener {
  default void startNotified(@NotNull ProcessEvent event) { }
  default void processNotStarted() { }
  default void processTerminated(@NotNull ProcessEvent event) { }
  default void processWillTerminate(@NotNull ProcessEvent event, boolean willBeDestroyed) { }
  default void onTextAvailable(@NotNull ProcessEvent event, @NotNull Key outputType) { }
}
