package com.intellij.openapi.extensions

// intellij-community: platform/extensions/src/com/intellij/openapi/extensions/ExtensionPointName.kt
class ExtensionPointName<T : Any>(name: String) {
  val extensionList: List<T>
    // Stub body for the JUnit fakes: no plugin registers extensions there (the real one reads
    // the extension area of the running IDE).
    get() = emptyList()
}
