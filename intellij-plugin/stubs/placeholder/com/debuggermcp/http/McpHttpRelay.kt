package com.debuggermcp.http

import io.netty.channel.ChannelHandlerContext
import io.netty.handler.codec.http.FullHttpRequest

// PLACEHOLDER, compile-only: the JNI engineer's real McpHttpRelay
// (intellij-plugin/src/main/kotlin/com/debuggermcp/http/McpHttpRelay.kt) replaces it on merge;
// scripts/test.d/kotlin.sh skips this file as soon as the real one exists. Never shipped.
object McpHttpRelay {
    fun relay(request: FullHttpRequest, context: ChannelHandlerContext) {
        throw UnsupportedOperationException("compile-only placeholder")
    }
}
