package com.intellij.notification

// intellij-community: platform/ide-core/src/com/intellij/notification/NotificationGroup.kt
class NotificationGroup private constructor(val displayId: String) {
  fun createNotification(title: String, content: String, type: NotificationType): Notification =
    throw UnsupportedOperationException("stub")
}
