package standin;

import com.debuggermcp.bridge.NativeBridge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * N threads × M calls through the JNI round trip (Java → Rust → Java callback → complete → back),
 * half answered synchronously and half from another thread; every answer is checked. Run under
 * -Xcheck:jni by XcheckJniTest, which fails on any JNI warning in this process' output.
 * Usage: Stress <lib.so> <threads> <calls>
 */
public final class Stress {
    public static void main(String[] args) throws Exception {
        System.load(Path.of(args[0]).toAbsolutePath().toString());
        int threads = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        Path settings = Files.createTempFile("stress", ".toml");
        ScriptedCallbacks cb = new ScriptedCallbacks();
        cb.modes.put("sessions", ScriptedCallbacks.Mode.ASYNC);
        cb.answer = (op, a) -> op.equals("threads")
                ? "[{\"id\":\"1\",\"name\":\"main\",\"state\":\"paused\"}]"
                : "[{\"id\":\"s1\",\"name\":\"App\",\"state\":\"paused\"}]";
        NativeBridge.init(settings.toString(), cb);
        AtomicInteger failures = new AtomicInteger();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int n = t;
            Thread th = new Thread(() -> {
                for (int i = 0; i < calls; i++) {
                    boolean even = (i + n) % 2 == 0;
                    String r = even
                            ? NativeBridge.backendCall("threads", "{\"session_id\":\"s" + i + "\"}")
                            : NativeBridge.backendCall("sessions", "{\"project\":\"/p\"}");
                    String want = even ? "\"name\":\"main\"" : "\"id\":\"s1\"";
                    if (!r.startsWith("{\"ok\":true") || !r.contains(want)) {
                        if (failures.incrementAndGet() < 5) System.err.println("bad answer: " + r);
                    }
                }
            }, "stress-" + t);
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) th.join();
        // The HTTP relay under the same checks: handleHttp, responder start/chunk/end (Rust
        // threads), cancelHttp on channel close, and the log thread.
        io.netty.channel.Channel server = StandIn.start(0);
        int port = ((java.net.InetSocketAddress) server.localAddress()).getPort();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String url = "http://127.0.0.1:" + port + "/debugger-mcp";
        for (int i = 0; i < 200; i++) {
            java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                    .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":" + i
                            + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                            + "\"clientInfo\":{\"name\":\"stress\",\"version\":\"1\"}}}")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200 || !r.body().contains("protocolVersion")) {
                if (failures.incrementAndGet() < 5) System.err.println("bad HTTP answer: " + r.statusCode() + " " + r.body());
            }
        }
        server.close().sync();
        // Exercise the other entry points too, so -Xcheck:jni sees every one of them.
        NativeBridge.pushEvent("{\"event\":\"resumed\",\"session_id\":\"s1\"}");
        NativeBridge.history("{}");
        NativeBridge.exportHistory("csv", "");
        NativeBridge.settingsToml();
        NativeBridge.status();
        try {
            NativeBridge.pushEvent("not json");
            failures.incrementAndGet();
        } catch (RuntimeException expected) {
        }
        String status = NativeBridge.status();
        NativeBridge.shutdown();
        System.out.println("STRESS DONE threads=" + threads + " calls=" + calls + " failures=" + failures.get() + " status=" + status);
        System.exit(failures.get() == 0 ? 0 : 1);
    }
}
