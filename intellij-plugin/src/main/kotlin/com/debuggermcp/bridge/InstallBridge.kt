package com.debuggermcp.bridge

/**
 * Entry points of the installer (the `debugger-mcp-install` crate, same code as the CLI's
 * `debugger-mcp install`) and of the IDE's discovery record. Requests and reports are JSON; see
 * native/install/src/report.rs. Errors of single agents are rows of the report; a malformed
 * request throws [RuntimeException] with Rust's message.
 */
object InstallBridge {
    /** Plans: every requested agent's status, file, diff and "copy config" text. Writes nothing. */
    @JvmStatic external fun plan(requestJson: String): String

    /** Applies: writes each agent's file (atomic, with backup) and the server token; returns the report. */
    @JvmStatic external fun apply(requestJson: String): String

    /** Writes or rewrites this IDE's discovery record; returns "" or the error. */
    @JvmStatic external fun publishDiscovery(recordJson: String): String

    /** Removes this IDE's discovery record. */
    @JvmStatic external fun withdrawDiscovery()

    /**
     * `debugger-mcp doctor`'s report for the project at [projectRoot] (native/install/src/doctor.rs,
     * `{"project", "checks": [{"name", "ok", "detail", "fix"?}]}`). Runs external commands (each
     * with a timeout, seconds in all): call it off the EDT.
     */
    @JvmStatic external fun doctor(projectRoot: String): String
}
