package com.debuggermcp.http

import com.debuggermcp.DebuggerMcpService
import io.netty.buffer.Unpooled
import io.netty.channel.ChannelFutureListener
import io.netty.channel.ChannelHandlerContext
import io.netty.handler.codec.http.DefaultFullHttpResponse
import io.netty.handler.codec.http.FullHttpRequest
import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpMethod
import io.netty.handler.codec.http.HttpResponseStatus
import io.netty.handler.codec.http.HttpUtil
import io.netty.handler.codec.http.HttpVersion
import io.netty.handler.codec.http.QueryStringDecoder
import org.jetbrains.ide.HttpRequestHandler
import java.net.InetSocketAddress
import java.nio.charset.StandardCharsets

/**
 * Claims `/debugger-mcp` and `/debugger-mcp/sse` on the IDE's built-in server (port 63342) and
 * hands each request to [McpHttpRelay], which forwards it to the Rust router without blocking
 * Netty. No MCP logic lives here. The platform's accessibility checks are weaker than they look
 * (its CORS handler echoes any Origin, its host check ignores the port), so [RequestGuard] checks
 * Host and Origin against the port the request arrived on before anything reaches Rust.
 */
class DebuggerMcpHttpHandler : HttpRequestHandler() {
    override fun isSupported(request: FullHttpRequest): Boolean {
        val method = request.method()
        if (method != HttpMethod.POST && method != HttpMethod.GET && method != HttpMethod.DELETE) return false
        return isMcpPath(QueryStringDecoder(request.uri()).path())
    }

    override fun process(urlDecoder: QueryStringDecoder, request: FullHttpRequest, context: ChannelHandlerContext): Boolean {
        if (!isMcpPath(urlDecoder.path())) return false
        // The port this request arrived on: the built-in server may not be on 63342.
        val port = (context.channel().localAddress() as? InetSocketAddress)?.port ?: -1
        RequestGuard.check(request.headers().get(HttpHeaderNames.HOST), request.headers().get(HttpHeaderNames.ORIGIN), port)?.let {
            sendPlain(request, context, HttpResponseStatus.valueOf(it.status), "Debugger MCP refused the request: ${it.message}\n")
            return true
        }
        val service = DebuggerMcpService.getInstance()
        // Normally started by the startup activity; a request that arrives first starts it here
        // (a one-time library load of a few milliseconds).
        if (!service.ensureStarted()) {
            val reason = (service.state as? DebuggerMcpService.State.Failed)?.message ?: "engine not started"
            sendPlain(request, context, HttpResponseStatus.SERVICE_UNAVAILABLE, "Debugger MCP is unavailable: $reason\n")
            return true
        }
        McpHttpRelay.relay(request, context)
        return true
    }

    private fun sendPlain(request: FullHttpRequest, context: ChannelHandlerContext, status: HttpResponseStatus, text: String) {
        val body = Unpooled.copiedBuffer(text, StandardCharsets.UTF_8)
        val response = DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body)
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; charset=utf-8")
        HttpUtil.setContentLength(response, body.readableBytes().toLong())
        val future = context.channel().writeAndFlush(response)
        if (!HttpUtil.isKeepAlive(request)) future.addListener(ChannelFutureListener.CLOSE)
    }

    companion object {
        fun isMcpPath(path: String): Boolean {
            val p = path.trimEnd('/')
            return p == DebuggerMcpService.ENDPOINT || p == DebuggerMcpService.ENDPOINT + "/sse"
        }
    }
}
