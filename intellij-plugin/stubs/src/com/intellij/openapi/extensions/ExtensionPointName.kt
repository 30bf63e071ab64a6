package com.intellij.openapi.extensions

// intellij-community: platform/extensions/src/com/intellij/openapi/extensions/ExtensionPointName.kt
class ExtensionPointName<T : Any>(name: String) {
  companion object {
    @JvmStatic
    fun <T : Any> create(name: String): ExtensionPointName<T> = ExtensionPointName(name)
  }

  val extensionList: List<T>
    get() = throw UnsupportedOperationException("stub")
}
