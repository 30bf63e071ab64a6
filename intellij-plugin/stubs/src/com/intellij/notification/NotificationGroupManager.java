package com.intellij.notification;

import org.jetbrains.annotations.NotNull;

// intellij-community: platform/ide-core/src/com/intellij/notification/NotificationGroupManager.java
public interface NotificationGroupManager {
  static NotificationGroupManager getInstance() { throw new UnsupportedOperationException("stub"); }
  NotificationGroup getNotificationGroup(@NotNull String groupId);
}
