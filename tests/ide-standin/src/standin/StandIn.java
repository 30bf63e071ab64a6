package standin;

import com.debuggermcp.bridge.NativeBridge;
import com.debuggermcp.http.McpHttpRelay;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.*;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A stand-in for the IDE's built-in web server: Netty with an HttpObjectAggregator (as IntelliJ's
 * server has), routing /debugger-mcp* to the plugin's real {@link McpHttpRelay}, with the real
 * cdylib loaded and a JDI-backed callback table.
 *
 * Usage: StandIn <libdebugger_mcp_jni.so> <project dir> <settings.toml> [port]
 * Prints "STANDIN READY <port>" on stdout once serving. Extra endpoint for tests:
 * GET /standin/status → NativeBridge.status(); GET /standin/history[?format=json|csv] → the
 * tool window's history; POST /standin/confirm?answer=false (the user refuses confirmations).
 */
public final class StandIn {
    public static volatile JdiCallbacks callbacks;

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: StandIn <lib.so> <project dir> <settings.toml> [port]");
            System.exit(2);
        }
        System.load(Path.of(args[0]).toAbsolutePath().toString());
        Path project = Path.of(args[1]).toAbsolutePath();
        callbacks = new JdiCallbacks(project);
        String handshake = NativeBridge.init(args[2], callbacks);
        System.err.println("native bridge: " + handshake);
        int port = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        Channel ch = start(port);
        int bound = ((InetSocketAddress) ch.localAddress()).getPort();
        NativeBridge.setServerUrl("http://127.0.0.1:" + bound + "/debugger-mcp");
        // Like the plugin: a discovery record so `debugger-mcp stdio` finds this "IDE".
        String record = Json.write(Json.m("url", "http://127.0.0.1:" + bound + "/debugger-mcp", "port", bound,
            "product", "IDE stand-in", "roots", java.util.List.of(project.toString())));
        String published = com.debuggermcp.bridge.InstallBridge.publishDiscovery(record);
        if (!published.isEmpty()) System.err.println("discovery: " + published);
        Runtime.getRuntime().addShutdownHook(new Thread(com.debuggermcp.bridge.InstallBridge::withdrawDiscovery));
        System.out.println("STANDIN READY " + bound);
        System.out.flush();
        ch.closeFuture().sync();
    }

    static Channel start(int port) throws InterruptedException {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup workers = new NioEventLoopGroup(2);
        ServerBootstrap b = new ServerBootstrap()
                .group(boss, workers)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec());
                        ch.pipeline().addLast(new HttpObjectAggregator(16 * 1024 * 1024));
                        ch.pipeline().addLast(new Router());
                    }
                });
        return b.bind("127.0.0.1", port).sync().channel();
    }

    /** Like the IDE's HttpRequestHandler dispatch: our prefix goes to the relay, the rest 404. */
    static final class Router extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
            String path = new QueryStringDecoder(req.uri()).path();
            if (path.equals("/debugger-mcp") || path.startsWith("/debugger-mcp/")) {
                McpHttpRelay.relay(req, ctx); // returns at once; SimpleChannelInboundHandler releases req
            } else if (path.equals("/standin/status")) {
                reply(ctx, req, NativeBridge.status());
            } else if (path.equals("/standin/history")) {
                // What the IDE tool window renders: Rust-owned history, as JSON or an export.
                String format = new QueryStringDecoder(req.uri()).parameters().getOrDefault("format", java.util.List.of("")).get(0);
                reply(ctx, req, format.isEmpty() ? NativeBridge.history("{}") : NativeBridge.exportHistory(format, "{}"));
            } else if (path.equals("/standin/confirm")) {
                String answer = new QueryStringDecoder(req.uri()).parameters().getOrDefault("answer", java.util.List.of("true")).get(0);
                callbacks.confirmAnswer = Boolean.parseBoolean(answer);
                reply(ctx, req, "{\"confirm\":" + callbacks.confirmAnswer + "}");
            } else {
                FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.NOT_FOUND);
                HttpUtil.setContentLength(r, 0);
                ctx.writeAndFlush(r);
            }
        }

        private static void reply(ChannelHandlerContext ctx, FullHttpRequest req, String json) {
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    Unpooled.copiedBuffer(json, StandardCharsets.UTF_8));
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            HttpUtil.setContentLength(r, r.content().readableBytes());
            if (!HttpUtil.isKeepAlive(req)) ctx.writeAndFlush(r).addListener(ChannelFutureListener.CLOSE);
            else ctx.writeAndFlush(r);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
