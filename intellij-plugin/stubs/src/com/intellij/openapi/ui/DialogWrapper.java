package com.intellij.openapi.ui;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

import javax.swing.JComponent;

// intellij-community: platform/platform-api/src/com/intellij/openapi/ui/DialogWrapper.java
public abstract class DialogWrapper {
  public static final int CANCEL_EXIT_CODE = 1;
  protected DialogWrapper(@Nullable Project project, boolean canBeParent) { }
  protected void init() { }
  protected abstract @Nullable JComponent createCenterPanel();
  public void setTitle(String title) { }
  public boolean showAndGet() { throw new UnsupportedOperationException("stub"); }
  public final void close(int exitCode) { }
}
