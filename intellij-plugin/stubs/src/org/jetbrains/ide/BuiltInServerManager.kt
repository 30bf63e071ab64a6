package org.jetbrains.ide

// intellij-community: platform/built-in-server-api/src/org/jetbrains/ide/BuiltInServerManager.kt
abstract class BuiltInServerManager {
  companion object {
    @JvmStatic
    fun getInstance(): BuiltInServerManager = throw UnsupportedOperationException("stub")
  }

  abstract val port: Int

  /** Blocks until the server is bound; [port] is only meaningful afterwards. */
  abstract fun waitForStart(): BuiltInServerManager
}
