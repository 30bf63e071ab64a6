package com.debuggermcp.bridge

/**
 * Receives one HTTP response from Rust, in order: [start] once, [chunk] zero or more times
 * (SSE streams stay open and keep sending chunks), then [end] once. Called from Rust threads.
 */
interface HttpResponder {
    fun start(status: Int, headerNames: Array<String>, headerValues: Array<String>)

    fun chunk(data: ByteArray)

    fun end()
}
