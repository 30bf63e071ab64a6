package com.intellij.notification;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/ide-core/src/com/intellij/notification/NotificationGroup.java
public final class NotificationGroup {
  public @NotNull Notification createNotification(@NotNull String title, @NotNull String content, @NotNull NotificationType type) { throw new UnsupportedOperationException("stub"); }
}
