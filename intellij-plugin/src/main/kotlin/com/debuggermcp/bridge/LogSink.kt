package com.debuggermcp.bridge

import java.util.logging.Level
import java.util.logging.Logger

/**
 * Receives Rust's log records (see [NativeBridge.log]). Levels: 1 error, 2 warn, 3 info,
 * 4 debug, 5 trace. Rust never writes to stdout; everything it logs arrives here.
 */
fun interface LogSink {
    fun log(level: Int, target: String, message: String)

    companion object {
        /** Default sink: java.util.logging logger "debugger-mcp" (IntelliJ routes it to idea.log). */
        @JvmField
        val JUL: LogSink = LogSink { level, target, message ->
            val logger = Logger.getLogger("debugger-mcp")
            val julLevel = when (level) {
                1 -> Level.SEVERE
                2 -> Level.WARNING
                3 -> Level.INFO
                4 -> Level.FINE
                else -> Level.FINEST
            }
            if (logger.isLoggable(julLevel)) logger.log(julLevel, "[$target] $message")
        }
    }
}
