package com.intellij.util.messages

import com.intellij.openapi.Disposable

// intellij-community: platform/extensions/src/com/intellij/util/messages/MessageBusConnection.kt
interface MessageBusConnection : SimpleMessageBusConnection, Disposable
