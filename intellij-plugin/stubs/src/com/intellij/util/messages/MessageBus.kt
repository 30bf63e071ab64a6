package com.intellij.util.messages

import com.intellij.openapi.Disposable

// intellij-community: platform/extensions/src/com/intellij/util/messages/MessageBus.kt
interface MessageBus : Disposable {
  fun connect(): MessageBusConnection

  fun connect(parentDisposable: Disposable): MessageBusConnection
}
