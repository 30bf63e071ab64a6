package com.debuggermcp.ui

import com.debuggermcp.json.Json
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState

/** One line of `debugger-mcp doctor` (native/install/src/doctor.rs `Check`). */
data class DoctorCheck(val name: String, val ok: Boolean, val detail: String, val fix: String?)

/**
 * The doctor report Rust computes (the same code as the CLI's `debugger-mcp doctor`), parsed for
 * the tool window's Doctor tab. Kotlin only renders: what is checked and the fix of each failing
 * line come from Rust.
 */
data class DoctorReport(val project: String, val checks: List<DoctorCheck>) {
    val failing: List<DoctorCheck> get() = checks.filter { !it.ok }

    /** The same closing line as the CLI's text report. */
    val summary: String
        get() = if (failing.isEmpty()) "everything works" else "${failing.size} check(s) failed; each names its fix"

    /** The fix commands of the failing checks, one per line (the "Copy fixes" button). */
    val fixes: String get() = failing.mapNotNull { it.fix }.joinToString("\n")

    companion object {
        fun parse(json: String): DoctorReport {
            val m = Json.parseObject(json)
            val checks = (m["checks"] as? List<*> ?: throw IllegalArgumentException("doctor report has no 'checks' array")).map { c ->
                val row = c as? Map<*, *> ?: throw IllegalArgumentException("doctor check is not an object: $c")
                DoctorCheck(
                    name = row["name"] as? String ?: throw IllegalArgumentException("doctor check without 'name': $c"),
                    ok = row["ok"] as? Boolean ?: throw IllegalArgumentException("doctor check '${row["name"]}' without 'ok'"),
                    detail = row["detail"] as? String ?: "",
                    fix = row["fix"] as? String,
                )
            }
            return DoctorReport(m["project"] as? String ?: "", checks)
        }

        /** One list row: failing rows carry their fix, so the row alone says what to do. */
        fun row(check: DoctorCheck): String =
            (if (check.ok) "✓ " else "✗ ") + "${check.name}: ${check.detail}" + (check.fix?.let { " — fix: $it" } ?: "")

        /**
         * Runs the doctor for [projectRoot] on a pooled thread (it starts python, gdb, go … with
         * timeouts: seconds, never on the EDT) and hands the report, or the error text, to [show]
         * on the EDT in [modality].
         */
        fun load(
            projectRoot: String,
            modality: ModalityState,
            doctor: (String) -> String,
            show: (DoctorReport?, String?) -> Unit,
        ) {
            val app = ApplicationManager.getApplication()
            app.executeOnPooledThread {
                val (report, error) = try {
                    parse(doctor(projectRoot)) to null
                } catch (t: Throwable) {
                    null to (t.message ?: t.javaClass.name)
                }
                app.invokeLater({ show(report, error) }, modality)
            }
        }
    }
}
