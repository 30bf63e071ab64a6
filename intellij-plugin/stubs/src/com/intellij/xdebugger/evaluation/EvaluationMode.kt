package com.intellij.xdebugger.evaluation

// intellij-community: platform/xdebugger-api/src/com/intellij/xdebugger/evaluation/EvaluationMode.kt
enum class EvaluationMode {
  EXPRESSION, CODE_FRAGMENT
}
