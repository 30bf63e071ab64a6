package com.intellij.notification;

import com.intellij.openapi.project.Project;
import org.jetbrains.annotations.NotNull;
import org.jetbrains.annotations.Nullable;

// intellij-community: platform/ide-core/src/com/intellij/notification/Notification.java
public class Notification {
  public Notification(@NotNull String groupId, @NotNull String title, @NotNull String content, @NotNull NotificationType type) { }
  public void notify(@Nullable Project project) { }
}
