package com.intellij.execution.runners

// intellij-community: platform/execution/src/com/intellij/execution/runners/ProgramRunner.kt
interface ProgramRunner<Settings>
