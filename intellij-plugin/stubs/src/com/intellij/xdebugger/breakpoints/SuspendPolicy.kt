package com.intellij.xdebugger.breakpoints

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/breakpoints/SuspendPolicy.kt
enum class SuspendPolicy {
  ALL, THREAD, NONE
}
