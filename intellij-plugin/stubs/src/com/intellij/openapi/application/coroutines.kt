package com.intellij.openapi.application

import com.intellij.openapi.project.Project
import com.intellij.openapi.util.Computable

// Stub bodies, for the JUnit fakes only: the real functions suspend until the read lock is free
// (smartReadAction also until indexing is over) and run the action on a background thread; here
// they run it through the installed Application's runReadAction, which FakeApplication tracks.
// Waiting for smart mode is not modelled (no DumbService stub): only a real IDE shows it.
// threading: bgt coroutines.kt (file id 1766895375: readAction = constrainedReadAction; file id 6742766392: constrainedReadAction checks "Must not call from EDT") — FakeApplication enforces it
// intellij-community: platform/core-api/src/com/intellij/openapi/application/coroutines.kt
suspend fun <T> readAction(action: () -> T): T =
    ApplicationManager.getApplication().runReadAction(Computable { action() })

// threading: bgt coroutines.kt (file id 1766895375: constrainedReadAction(ReadConstraint.inSmartMode(project)); file id 6742766392: "Must not call from EDT", and no waiting for smart mode while holding the read lock) — FakeApplication enforces both
// intellij-community: platform/core-api/src/com/intellij/openapi/application/coroutines.kt
suspend fun <T> smartReadAction(project: Project, action: () -> T): T =
    ApplicationManager.getApplication().runReadAction(Computable { action() })
