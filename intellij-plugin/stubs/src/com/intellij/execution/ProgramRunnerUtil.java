package com.intellij.execution;

import com.intellij.execution.runners.ExecutionEnvironment;
import org.jetbrains.annotations.NotNull;

// intellij-community: platform/execution-impl/src/com/intellij/execution/ProgramRunnerUtil.java
public final class ProgramRunnerUtil {
  private ProgramRunnerUtil() { }
  // threading: edt platform/execution-impl/src/com/intellij/execution/ProgramRunnerUtil.java (file id 7253371313): read, no annotation; it calls ExecutionManagerImpl.executeConfiguration (ExecutionManagerImpl.kt, file id 1646897139), which may show RunDialog.editConfiguration (a modal DialogWrapper: EDT only) and otherwise checks in a non-blocking read action and starts the runner in finishOnUiThread(ModalityState.nonModal()); the Run/Debug actions call it on the EDT, non-modal, and so does the adapter
  public static void executeConfiguration(@NotNull ExecutionEnvironment environment, boolean showSettings, boolean assignNewId) {
    testExecutionManager.accept(environment, assignNewId);
  }
  // Stub body: the real one hands the environment to ExecutionManagerImpl.executeConfiguration, a
  // project service; the JUnit fakes stand in for it through this package-private hook (not API:
  // javap -protected, hence the API check, does not see it).
  static volatile java.util.function.BiConsumer<ExecutionEnvironment, Boolean> testExecutionManager =
    (environment, assignNewId) -> { throw new UnsupportedOperationException("stub"); };
}
