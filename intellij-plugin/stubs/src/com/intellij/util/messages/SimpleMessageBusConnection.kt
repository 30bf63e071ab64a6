package com.intellij.util.messages

// intellij-community: platform/extensions/src/com/intellij/util/messages/SimpleMessageBusConnection.kt
interface SimpleMessageBusConnection {
  fun <L : Any> subscribe(topic: Topic<L>, handler: L)

  fun disconnect()
}
