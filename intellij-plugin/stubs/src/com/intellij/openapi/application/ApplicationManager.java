package com.intellij.openapi.application;

import com.intellij.openapi.Disposable;
import org.jetbrains.annotations.NotNull;

// Holds the application like the real class, so the JUnit fakes can install theirs (FakeApplication).
// intellij-community: platform/core-api/src/com/intellij/openapi/application/ApplicationManager.java
public class ApplicationManager {
  private static volatile Application ourApplication;
  // threading: any platform/core-api/src/com/intellij/openapi/application/ApplicationManager.java (file id 11809402524 @06b6f557919e109c8e8682109fa7fe4a0221bdcf): read, returns a static field, no rule
  public static Application getApplication() { return ourApplication; }
  public static void setApplication(@NotNull Application instance, @NotNull Disposable parent) { ourApplication = instance; }
}
