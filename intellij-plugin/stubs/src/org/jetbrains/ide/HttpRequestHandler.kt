package org.jetbrains.ide

import io.netty.channel.ChannelHandlerContext
import io.netty.handler.codec.http.FullHttpRequest
import io.netty.handler.codec.http.HttpMethod
import io.netty.handler.codec.http.HttpRequest
import io.netty.handler.codec.http.QueryStringDecoder
import java.io.IOException

// intellij-community: platform/platform-util-netty/src/org/jetbrains/ide/HttpRequestHandler.kt
abstract class HttpRequestHandler {
  open fun isAccessible(request: HttpRequest): Boolean = throw UnsupportedOperationException("stub")

  open fun isSupported(request: FullHttpRequest): Boolean =
    request.method() === HttpMethod.GET || request.method() === HttpMethod.HEAD

  @Throws(IOException::class)
  abstract fun process(urlDecoder: QueryStringDecoder, request: FullHttpRequest, context: ChannelHandlerContext): Boolean
}
