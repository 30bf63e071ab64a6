package com.intellij.openapi.application;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.NotNull;

// Holds the application like the real class, so the JUnit fakes can install theirs (FakeApplication).
// intellij-community: platform/core-api/src/com/intellij/openapi/application/ApplicationManager.java
public class ApplicationManager {
  private static volatile Application ourApplication;
  // threading: any ApplicationManager.java (unverified)
  public static Application getApplication() { return ourApplication; }
  public static void setApplication(@NotNull Application instance, @NotNull Disposable parent) { ourApplication = instance; }
}
