package com.intellij.execution.actions;

import com.intellij.execution.RunnerAndConfigurationSettings;
import com.intellij.psi.PsiElement;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/lang-api/src/com/intellij/execution/actions/ConfigurationContext.java
public class ConfigurationContext {
  public ConfigurationContext(@NotNull PsiElement element) {
    throw new UnsupportedOperationException("stub");
  }

  // ConfigurationContext.java (file id 4506837956): public, not final.
  public @Nullable RunnerAndConfigurationSettings findExisting() {
    throw new UnsupportedOperationException("stub");
  }

  public synchronized @Nullable RunnerAndConfigurationSettings getConfiguration() {
    throw new UnsupportedOperationException("stub");
  }
}
