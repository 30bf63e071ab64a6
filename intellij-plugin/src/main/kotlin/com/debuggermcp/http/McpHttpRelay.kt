package com.debuggermcp.http

import com.debuggermcp.bridge.HttpResponder
import com.debuggermcp.bridge.NativeBridge
import io.netty.buffer.Unpooled
import io.netty.channel.Channel
import io.netty.channel.ChannelFutureListener
import io.netty.channel.ChannelHandlerContext
import io.netty.handler.codec.http.DefaultFullHttpResponse
import io.netty.handler.codec.http.DefaultHttpContent
import io.netty.handler.codec.http.DefaultHttpResponse
import io.netty.handler.codec.http.FullHttpRequest
import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpHeaderValues
import io.netty.handler.codec.http.HttpResponseStatus
import io.netty.handler.codec.http.HttpUtil
import io.netty.handler.codec.http.HttpVersion
import io.netty.handler.codec.http.LastHttpContent
import io.netty.util.concurrent.Future
import io.netty.util.concurrent.GenericFutureListener
import java.nio.charset.StandardCharsets
import java.util.concurrent.atomic.AtomicBoolean

/**
 * Relays one aggregated HTTP request to the Rust router (no MCP logic here, SPEC §2).
 *
 * [relay] copies what it needs from the request synchronously and returns at once; Rust runs the
 * request on its own runtime and writes the response through [NettyResponder] from its threads
 * (Netty channel writes are thread-safe). The caller keeps ownership of [request] (it releases it
 * as usual). When the client channel closes, the Rust task is cancelled, which ends SSE streams.
 */
object McpHttpRelay {
    @JvmStatic
    fun relay(request: FullHttpRequest, context: ChannelHandlerContext) {
        val channel = context.channel()
        val keepAlive = HttpUtil.isKeepAlive(request)
        val headers = request.headers()
        val names = ArrayList<String>(headers.size())
        val values = ArrayList<String>(headers.size())
        for (entry in headers) {
            names.add(entry.key)
            values.add(entry.value)
        }
        val content = request.content()
        val body = ByteArray(content.readableBytes())
        content.getBytes(content.readerIndex(), body)

        val responder = NettyResponder(channel, keepAlive)
        val handle = try {
            NativeBridge.handleHttp(
                request.method().name(),
                request.uri(),
                names.toTypedArray(),
                values.toTypedArray(),
                body,
                responder,
            )
        } catch (e: Throwable) {
            // Library not loaded / not initialized / invalid request: answer here, never hang.
            responder.fail(HttpResponseStatus.SERVICE_UNAVAILABLE, e.message ?: e.toString())
            return
        }
        responder.watch(handle)
    }
}

/** Writes Rust's response to a Netty channel; called from Rust threads, in order start, chunk*, end. */
internal class NettyResponder(private val channel: Channel, private val keepAlive: Boolean) : HttpResponder {
    private val finished = AtomicBoolean(false)

    @Volatile
    private var closeListener: GenericFutureListener<Future<in Void>>? = null

    /** Cancels the Rust task when the client goes away before the response ended. */
    fun watch(handle: Long) {
        val listener = GenericFutureListener<Future<in Void>> {
            if (finished.compareAndSet(false, true)) NativeBridge.cancelHttp(handle)
        }
        closeListener = listener
        channel.closeFuture().addListener(listener)
        if (finished.get()) unwatch()
    }

    private fun unwatch() {
        closeListener?.let { channel.closeFuture().removeListener(it) }
    }

    override fun start(status: Int, headerNames: Array<String>, headerValues: Array<String>) {
        val response = DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status))
        val headers = response.headers()
        for (i in headerNames.indices) headers.add(headerNames[i], headerValues[i])
        if (!headers.contains(HttpHeaderNames.CONTENT_LENGTH)) HttpUtil.setTransferEncodingChunked(response, true)
        if (!keepAlive) headers.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE)
        channel.writeAndFlush(response)
    }

    override fun chunk(data: ByteArray) {
        channel.writeAndFlush(DefaultHttpContent(Unpooled.wrappedBuffer(data)))
    }

    override fun end() {
        if (!finished.compareAndSet(false, true)) return
        unwatch()
        val future = channel.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT)
        if (!keepAlive) future.addListener(ChannelFutureListener.CLOSE)
    }

    fun fail(status: HttpResponseStatus, message: String) {
        finished.set(true)
        val body = Unpooled.copiedBuffer("{\"error\":${quote(message)}}", StandardCharsets.UTF_8)
        val response = DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body)
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json")
        HttpUtil.setContentLength(response, body.readableBytes().toLong())
        val future = channel.writeAndFlush(response)
        if (!keepAlive) future.addListener(ChannelFutureListener.CLOSE)
    }

    private fun quote(s: String): String {
        val sb = StringBuilder("\"")
        for (c in s) {
            when {
                c == '"' -> sb.append("\\\"")
                c == '\\' -> sb.append("\\\\")
                c < ' ' -> sb.append(String.format("\\u%04x", c.code))
                else -> sb.append(c)
            }
        }
        return sb.append('"').toString()
    }
}
