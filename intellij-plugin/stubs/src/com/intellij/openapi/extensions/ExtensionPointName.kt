package com.intellij.openapi.extensions

// intellij-community: platform/extensions/src/com/intellij/openapi/extensions/ExtensionPointName.kt
class ExtensionPointName<T : Any>(name: String) {
  val extensionList: List<T>
    get() = throw UnsupportedOperationException("stub")
}
