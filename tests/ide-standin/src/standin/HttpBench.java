package standin;

import com.debuggermcp.bridge.NativeBridge;
import io.netty.channel.Channel;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * HTTP round trip through the stand-in: java.net.http client → Netty (HttpObjectAggregator) →
 * McpHttpRelay → JNI → Rust router/MCP → responder → Netty → client, sequential on one
 * keep-alive connection. Uses tools/call list_debug_sessions when the engine has that tool
 * (then the call also crosses the callback table into the JDI stand-in), else JSON-RPC ping.
 * Usage: HttpBench <lib.so> <project dir> [iterations]
 */
public final class HttpBench {
    public static void main(String[] args) throws Exception {
        System.load(Path.of(args[0]).toAbsolutePath().toString());
        int n = args.length > 2 ? Integer.parseInt(args[2]) : 5000;
        Path settings = Files.createTempFile("httpbench", ".toml");
        Files.writeString(settings, "brave_mode = true\n");
        StandIn.callbacks = new JdiCallbacks(Path.of(args[1]));
        NativeBridge.init(settings.toString(), StandIn.callbacks);
        Channel ch = StandIn.start(0);
        String url = "http://127.0.0.1:" + ((InetSocketAddress) ch.localAddress()).getPort() + "/debugger-mcp";
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> init = http.send(post(url, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}"),
                HttpResponse.BodyHandlers.ofString());
        String sid = init.headers().firstValue("mcp-session-id").orElseThrow();
        http.send(post(url, sid, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"), HttpResponse.BodyHandlers.ofString());
        String tools = http.send(post(url, sid, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"), HttpResponse.BodyHandlers.ofString()).body();
        boolean hasTool = tools.contains("\"list_debug_sessions\"") && !"ping".equals(System.getenv("HTTP_BENCH_METHOD"));
        String what = hasTool ? "tools/call list_debug_sessions" : "ping";
        String body = hasTool
                ? "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"list_debug_sessions\",\"arguments\":{}}}"
                : "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}";
        HttpRequest req = post(url, sid, body);
        // Warm up by time, not count: C2 keeps compiling Netty/HttpClient paths for seconds and
        // would otherwise dominate the figures (seen with perf: ~half the CPU in C2 threads).
        long warm = Long.parseLong(System.getenv().getOrDefault("HTTP_BENCH_WARMUP_S", "10")) * 1_000_000_000L;
        long w0 = System.nanoTime();
        while (System.nanoTime() - w0 < warm) check(http.send(req, HttpResponse.BodyHandlers.ofString()));
        long[] samples = new long[n];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            check(http.send(req, HttpResponse.BodyHandlers.ofString()));
            samples[i] = System.nanoTime() - s;
        }
        long total = System.nanoTime() - t0;
        Arrays.sort(samples);
        System.out.printf("http %s through the stand-in: n=%d mean=%.1f us p50=%.1f us p90=%.1f us p99=%.1f us (%.0f calls/s sequential)%n",
                what, n, total / 1e3 / n, samples[n / 2] / 1e3, samples[n * 9 / 10] / 1e3, samples[n * 99 / 100] / 1e3, n / (total / 1e9));
        ch.close().sync();
        NativeBridge.shutdown();
        System.exit(0);
    }

    static void check(HttpResponse<String> r) {
        if (r.statusCode() != 200 || !r.body().contains("\"id\":3") || r.body().contains("\"isError\":true")) {
            throw new IllegalStateException("bad response " + r.statusCode() + ": " + r.body());
        }
    }

    static HttpRequest post(String url, String sid, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (sid != null) b.header("mcp-session-id", sid).header("mcp-protocol-version", "2025-06-18");
        return b.build();
    }
}
