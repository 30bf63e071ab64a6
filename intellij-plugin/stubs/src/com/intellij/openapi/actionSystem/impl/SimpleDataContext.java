package com.intellij.openapi.actionSystem.impl;

import com.intellij.openapi.actionSystem.DataContext;
import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;

// Real hierarchy: SimpleDataContext extends CustomizedDataContext implements DataContext; the
// plugin only creates one, so the stub implements DataContext directly.
// intellij-community: platform/ide-core-impl/src/com/intellij/openapi/actionSystem/impl/SimpleDataContext.java
public final class SimpleDataContext implements DataContext {
  private SimpleDataContext() { }
  // Stub body for the JUnit fakes: a context object (the real one holds only the project).
  public static @NotNull DataContext getProjectContext(@NotNull Project project) { return new SimpleDataContext(); }
}
