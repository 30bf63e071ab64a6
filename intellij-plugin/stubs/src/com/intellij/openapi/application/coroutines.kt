package com.intellij.openapi.application

// intellij-community: platform/core-api/src/com/intellij/openapi/application/coroutines.kt
suspend fun <T> readAction(action: () -> T): T = throw UnsupportedOperationException("stub")
