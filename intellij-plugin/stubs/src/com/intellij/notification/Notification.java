package com.intellij.notification;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/ide-core/src/com/intellij/notification/Notification.java
public class Notification {
  public void notify(@Nullable Project project) { }
}
