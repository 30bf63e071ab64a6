package com.intellij.notification;

// intellij-community: platform/ide-core/src/com/intellij/notification/NotificationType.java
public enum NotificationType {
  INFORMATION, WARNING, ERROR, IDE_UPDATE
}
