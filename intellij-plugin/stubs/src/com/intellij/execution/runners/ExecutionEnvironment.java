package com.intellij.execution.runners;

// Stub bodies as the real class's (ExecutionEnvironment.java, file id 8789149961): a new environment
// has no id until `assignNewExecutionId()` takes the next one of a shared counter
// (`myExecutionId = myIdHolder.incrementAndGet()`); ExecutionManagerImpl assigns it when a run
// starts with assignNewId (ExecutionManagerImpl.kt, file id 1646897139).
// intellij-community: platform/execution/src/com/intellij/execution/runners/ExecutionEnvironment.java
public final class ExecutionEnvironment extends com.intellij.openapi.util.UserDataHolderBase {
  private static final java.util.concurrent.atomic.AtomicLong ourIds = new java.util.concurrent.atomic.AtomicLong();
  private volatile long myExecutionId;
  public ExecutionEnvironment() { }
  public long assignNewExecutionId() {
    myExecutionId = ourIds.incrementAndGet();
    return myExecutionId;
  }
  public long getExecutionId() { return myExecutionId; }
}
