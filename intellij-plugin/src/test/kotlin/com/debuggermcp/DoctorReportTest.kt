package com.debuggermcp

import com.debuggermcp.fakes.FakeApplication
import com.debuggermcp.ui.DoctorReport
import com.intellij.openapi.application.ModalityState
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit

/**
 * The tool window's Doctor tab (issue 15 item 13, IDE half): the report Rust computes through
 * `InstallBridge.doctor` is shown row by row with each failing check's fix, and the doctor (which
 * starts python, gdb, go … with timeouts) never runs on the EDT.
 */
@Timeout(10)
class DoctorReportTest {
    private val app = FakeApplication.install()

    @AfterEach
    fun clean() {
        app.dispose()
        assertEquals(emptyList<String>(), app.violations)
    }

    // `debugger-mcp doctor --json` on the development machine (native/install/src/doctor.rs
    // Report::json), with the python check failing as `fail("python", …)` reports it.
    private val json = """
        {
          "project": "/work/project",
          "checks": [
            { "name": "python", "ok": false, "detail": "/usr/bin/python3 (Python 3.11.7): debugpy does not import",
              "fix": "/usr/bin/python3 -m pip install debugpy" },
            { "name": "gdb", "ok": true, "detail": "/usr/bin/gdb (GNU gdb (GDB) 18.1): has the DAP interpreter" },
            { "name": "lldb-dap", "ok": true, "detail": "/usr/bin/lldb-dap-19" },
            { "name": "port 9003", "ok": true, "detail": "free for Xdebug (DBGp)" }
          ]
        }
    """.trimIndent()

    @Test
    fun `rows show every check, failing ones with their fix, and the CLI's summary`() {
        val report = DoctorReport.parse(json)
        assertEquals("/work/project", report.project)
        assertEquals(
            listOf(
                "✗ python: /usr/bin/python3 (Python 3.11.7): debugpy does not import — fix: /usr/bin/python3 -m pip install debugpy",
                "✓ gdb: /usr/bin/gdb (GNU gdb (GDB) 18.1): has the DAP interpreter",
                "✓ lldb-dap: /usr/bin/lldb-dap-19",
                "✓ port 9003: free for Xdebug (DBGp)",
            ),
            report.checks.map { DoctorReport.row(it) },
        )
        assertEquals("1 check(s) failed; each names its fix", report.summary)
        assertEquals("/usr/bin/python3 -m pip install debugpy", report.fixes)
        assertEquals("everything works", DoctorReport.parse("""{"project":"/p","checks":[{"name":"gdb","ok":true,"detail":"x"}]}""").summary)
    }

    @Test
    fun `the doctor runs off the EDT and the report is shown on the EDT`() {
        val ranOnEdt = CompletableFuture<Boolean>()
        val shown = CompletableFuture<Pair<DoctorReport?, Boolean>>()
        DoctorReport.load("/work/project", ModalityState.any(), { root ->
            ranOnEdt.complete(app.isEdt())
            assertEquals("/work/project", root)
            json
        }) { report, error ->
            assertNull(error)
            shown.complete(report to app.isEdt())
        }
        assertFalse(ranOnEdt.get(5, TimeUnit.SECONDS), "the doctor ran on the EDT")
        val (report, onEdt) = shown.get(5, TimeUnit.SECONDS)
        assertTrue(onEdt, "the report was not shown on the EDT")
        assertEquals(4, report!!.checks.size)
    }

    @Test
    fun `a doctor error is shown as text, not thrown away`() {
        val shown = CompletableFuture<String?>()
        DoctorReport.load("/p", ModalityState.any(), { throw RuntimeException("debugger-mcp: Rust panic: boom") }) { report, error ->
            assertNull(report)
            shown.complete(error)
        }
        assertEquals("debugger-mcp: Rust panic: boom", shown.get(5, TimeUnit.SECONDS))
    }
}
