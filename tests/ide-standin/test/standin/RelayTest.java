package standin;

import static org.junit.jupiter.api.Assertions.*;

import com.debuggermcp.bridge.NativeBridge;
import io.netty.channel.Channel;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** HTTP through the Netty stand-in → McpHttpRelay (Kotlin) → JNI → Rust router, and back. */
class RelayTest {
    static Channel server;
    static int port;
    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void up() throws Exception {
        Lib.init(new ScriptedCallbacks(), "");
        server = StandIn.start(0);
        port = ((InetSocketAddress) server.localAddress()).getPort();
    }

    @AfterAll
    static void down() {
        server.close();
        NativeBridge.shutdown();
    }

    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"relay-test\",\"version\":\"1\"}}}";

    static HttpRequest.Builder post(String body) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/debugger-mcp"))
                .timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    static String initialize() throws Exception {
        HttpResponse<String> r = http.send(post(INIT).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"protocolVersion\""), r.body());
        String sid = r.headers().firstValue("mcp-session-id").orElseThrow();
        HttpResponse<String> n = http.send(post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
                .header("mcp-session-id", sid).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(202, n.statusCode(), n.body());
        return sid;
    }

    @Test
    void initializeAndListToolsThroughTheRelay() throws Exception {
        String sid = initialize();
        HttpResponse<String> r = http.send(post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
                .header("mcp-session-id", sid).header("mcp-protocol-version", "2025-06-18").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"id\":2") && r.body().contains("\"tools\""), r.body());
    }

    @Test
    void manyRequestsOnOneKeepAliveConnection() throws Exception {
        String sid = initialize();
        for (int i = 0; i < 50; i++) {
            HttpResponse<String> r = http.send(post("{\"jsonrpc\":\"2.0\",\"id\":" + (100 + i) + ",\"method\":\"ping\"}")
                    .header("mcp-session-id", sid).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertTrue(r.body().contains("\"id\":" + (100 + i)), r.body());
        }
    }

    static long activeHttp() throws Exception {
        return (Long) Json.obj(NativeBridge.status()).get("active_http");
    }

    /**
     * Waits (5 s at most) until Rust counts [expected] relay tasks. A task leaves the count only
     * after its last write to the responder, so a client holding a complete response can still
     * see its task counted for a moment: a snapshot taken right after a request races it.
     */
    static void awaitActiveHttp(long expected, String why) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        long active;
        while ((active = activeHttp()) != expected && System.nanoTime() < deadline) Thread.sleep(10);
        assertEquals(expected, active, why);
    }

    @Test
    void aClientThatDisconnectsMidStreamCancelsTheRustTask() throws Exception {
        String sid = initialize();
        // The tests of this class run one at a time and wait for their responses: once the
        // tasks of initialize() have ended, nothing is in flight.
        awaitActiveHttp(0, "a relay task outlived its completed request");
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream o = s.getOutputStream();
            o.write(("GET /debugger-mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: text/event-stream\r\n"
                    + "Mcp-Session-Id: " + sid + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            o.flush();
            InputStream in = s.getInputStream();
            // Read up to the end of the response head (it may come in more than one read).
            StringBuilder head = new StringBuilder();
            byte[] buf = new byte[4096];
            int n;
            while (head.indexOf("\r\n\r\n") < 0 && (n = in.read(buf)) > 0) head.append(new String(buf, 0, n, StandardCharsets.US_ASCII));
            assertTrue(head.toString().startsWith("HTTP/1.1 200") && head.toString().toLowerCase().contains("text/event-stream"), head.toString());
            // The SSE stream stays open: the Rust task is alive while the client is connected.
            awaitActiveHttp(1, "the open SSE stream's task must be running");
        }
        awaitActiveHttp(0, "the stream's task must end when the client disconnects");
    }

    @Test
    void anInjectedPanicInARelayTaskAnswers500AndTheServerKeepsServing() throws Exception {
        assertEquals("1", System.getenv("DEBUGGER_MCP_TEST_HOOKS"), "run with DEBUGGER_MCP_TEST_HOOKS=1");
        HttpResponse<String> r = http.send(post(INIT).header("x-debugger-mcp-test-panic", "1").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(500, r.statusCode());
        assertTrue(r.body().contains("injected panic"), r.body());
        initialize();
    }

    @Test
    void otherPathsAreNotRelayed() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/elsewhere")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(404, r.statusCode());
    }
}
