package com.intellij.execution.runners;

// Stub bodies as the real class's (ExecutionEnvironment.java, file id 8789149961): a new environment
// has no id until `assignNewExecutionId()` takes the next one of a shared counter
// (`myExecutionId = myIdHolder.incrementAndGet()`); ExecutionManagerImpl assigns it when a run
// starts with assignNewId (ExecutionManagerImpl.kt, file id 1646897139).
// intellij-community: platform/execution/src/com/intellij/execution/runners/ExecutionEnvironment.java
public final class ExecutionEnvironment extends com.intellij.openapi.util.UserDataHolderBase {
  private static final java.util.concurrent.atomic.AtomicLong ourIds = new java.util.concurrent.atomic.AtomicLong();
  private volatile long myExecutionId;
  private final com.intellij.execution.RunnerAndConfigurationSettings myRunnerAndConfigurationSettings;
  public ExecutionEnvironment() { myRunnerAndConfigurationSettings = null; }
  // Not in the real class: stands in for its package-private constructor that
  // ExecutionEnvironmentBuilder.build() calls with the builder's settings (file id 8789149961).
  ExecutionEnvironment(com.intellij.execution.RunnerAndConfigurationSettings settings) { myRunnerAndConfigurationSettings = settings; }
  public com.intellij.execution.RunnerAndConfigurationSettings getRunnerAndConfigurationSettings() { return myRunnerAndConfigurationSettings; }
  // Before-run tasks give the environments they start their caller's id (RunConfigurationBeforeRunProvider.doExecuteTask).
  public void setExecutionId(long executionId) { myExecutionId = executionId; }
  public long assignNewExecutionId() {
    myExecutionId = ourIds.incrementAndGet();
    return myExecutionId;
  }
  public long getExecutionId() { return myExecutionId; }
}
