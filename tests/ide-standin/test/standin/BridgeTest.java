package standin;

import static org.junit.jupiter.api.Assertions.*;

import com.debuggermcp.bridge.NativeBridge;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The callback table over JNI with a scripted JVM side: answers, errors, faults, timeouts. */
class BridgeTest {
    ScriptedCallbacks cb = new ScriptedCallbacks();

    @AfterEach
    void down() {
        NativeBridge.shutdown();
    }

    static Map<String, Object> call(String op, String args) {
        return Json.obj(NativeBridge.backendCall(op, args));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> error(Map<String, Object> r) {
        assertEquals(false, r.get("ok"), () -> "expected an error: " + r);
        return (Map<String, Object>) r.get("error");
    }

    @Test
    void handshakeRejectsAnotherTableVersion() throws Exception {
        cb.version = 99;
        RuntimeException e = assertThrows(RuntimeException.class, () -> Lib.init(cb, ""));
        assertTrue(e.getMessage().contains("version mismatch") && e.getMessage().contains("99"), e.getMessage());
    }

    @Test
    void initReturnsHandshakeAndTypedAnswersRoundTrip() throws Exception {
        String hs = Lib.init(cb, "");
        assertEquals(1L, Json.obj(hs).get("table_version"));
        cb.fixed.put("frames", "{\"frames\":[{\"index\":0,\"handle\":\"1:0\",\"line\":12,\"class_name\":\"demo.App\"}],\"total\":3}");
        Map<String, Object> r = call("frames", "{\"session_id\":\"s1\",\"thread_id\":\"1\",\"offset\":0,\"limit\":20}");
        assertEquals(true, r.get("ok"), r::toString);
        @SuppressWarnings("unchecked")
        Map<String, Object> page = (Map<String, Object>) r.get("result");
        assertEquals(3L, page.get("total"));
        assertTrue(page.toString().contains("demo.App"));
    }

    @Test
    void argsUseTheTraitParameterNames() throws Exception {
        Lib.init(cb, "");
        List<String> seen = new ArrayList<>();
        cb.answer = (op, args) -> {
            seen.add(args);
            return "null";
        };
        assertEquals(true, call("control", "{\"session_id\":\"s1\",\"thread_id\":null,\"op\":{\"op\":\"step_over\"}}").get("ok"));
        Map<String, Object> args = Json.obj(seen.get(0));
        assertEquals("s1", args.get("session_id"));
        assertTrue(args.containsKey("thread_id"));
        assertEquals(Map.of("op", "step_over", "ignore_breakpoints", false), args.get("op"));
    }

    @Test
    void asynchronousAnswersArrive() throws Exception {
        Lib.init(cb, "");
        cb.defaultMode = ScriptedCallbacks.Mode.ASYNC;
        cb.fixed.put("projects", "[{\"name\":\"p\",\"root\":\"/tmp/p\"}]");
        Map<String, Object> r = call("projects", "{}");
        assertEquals(true, r.get("ok"), r::toString);
        assertEquals("/tmp/p", ((Map<?, ?>) ((List<?>) r.get("result")).get(0)).get("root"));
    }

    @Test
    void aCallbackThatThrowsBecomesAToolError() throws Exception {
        Lib.init(cb, "");
        cb.modes.put("threads", ScriptedCallbacks.Mode.THROW);
        Map<String, Object> err = error(call("threads", "{\"session_id\":\"s1\"}"));
        assertEquals("failed", err.get("kind"));
        assertTrue(((String) err.get("message")).contains("scripted failure in threads"), err.toString());
        // The bridge still works afterwards and nothing is left waiting.
        cb.modes.remove("threads");
        cb.fixed.put("threads", "[]");
        assertEquals(true, call("threads", "{\"session_id\":\"s1\"}").get("ok"));
        assertEquals(0L, Json.obj(NativeBridge.status()).get("pending_callbacks"));
    }

    @Test
    void errorAnswersKeepTheirKind() throws Exception {
        Lib.init(cb, "");
        cb.modes.put("stop", ScriptedCallbacks.Mode.ERROR);
        Map<String, Object> err = error(call("stop", "{\"session_id\":\"s9\"}"));
        assertEquals("not_found", err.get("kind"));
        cb.modes.put("stop", ScriptedCallbacks.Mode.GARBAGE);
        err = error(call("stop", "{\"session_id\":\"s9\"}"));
        assertEquals("failed", err.get("kind"));
        assertTrue(((String) err.get("message")).contains("malformed"), err.toString());
    }

    @Test
    void aCallbackThatNeverAnswersTimesOutAndALateAnswerIsDropped() throws Exception {
        Lib.init(cb, "backend_timeout_ms = 300\n");
        cb.modes.put("threads", ScriptedCallbacks.Mode.HANG);
        long t0 = System.nanoTime();
        Map<String, Object> err = error(call("threads", "{\"session_id\":\"s1\"}"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("timeout", err.get("kind"));
        assertTrue(ms >= 290 && ms < 3000, "took " + ms + " ms");
        assertEquals(0L, Json.obj(NativeBridge.status()).get("pending_callbacks"));
        NativeBridge.complete(1, true, "[]"); // late: ignored, no exception
    }

    @Test
    void launchUsesTheLaunchTimeout() throws Exception {
        Lib.init(cb, "backend_timeout_ms = 100\nlaunch_timeout_ms = 700\n");
        cb.modes.put("launch", ScriptedCallbacks.Mode.HANG);
        long t0 = System.nanoTime();
        Map<String, Object> err = error(call("launch", "{\"project\":\"/p\",\"request\":{\"configuration\":\"App\"}}"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertEquals("timeout", err.get("kind"));
        assertTrue(ms >= 690, "launch timed out after " + ms + " ms, before launch_timeout_ms");
    }

    @Test
    void launchAndDebugTestTellTheJvmHowLongRustWaits() throws Exception {
        // Issue 27 item 1: the plugin's launch op waited up to its own 30 min backstop after Rust
        // had given up; Rust now sends its wait (launch_timeout_ms + [ide] build_timeout_ms) as
        // budget_ms, and the plugin ends the start with it.
        Lib.init(cb, "launch_timeout_ms = 700\n[ide]\nbuild_timeout_ms = 300\n");
        Map<String, String> seen = new java.util.concurrent.ConcurrentHashMap<>();
        cb.answer = (op, args) -> {
            seen.put(op, args);
            return "{\"id\":\"s1\",\"name\":\"App\",\"state\":\"running\",\"mode\":\"debug\"}";
        };
        assertEquals(true, call("launch", "{\"project\":\"/p\",\"request\":{\"configuration\":\"App\"}}").get("ok"));
        assertEquals(1000L, Json.obj(seen.get("launch")).get("budget_ms"), seen.get("launch"));
        assertEquals(true, call("debug_test", "{\"project\":\"/p\",\"request\":{\"framework\":\"ide\",\"test_id\":\"a.B#c\"}}").get("ok"));
        assertEquals(1000L, Json.obj(seen.get("debug_test")).get("budget_ms"), seen.get("debug_test"));
        // Other ops carry no budget: theirs is the op table's own.
        cb.answer = (op, args) -> { seen.put(op, args); return "[]"; };
        call("threads", "{\"session_id\":\"s1\"}");
        assertFalse(Json.obj(seen.get("threads")).containsKey("budget_ms"), seen.get("threads"));
    }

    @Test
    void anInjectedRustPanicBecomesAJavaExceptionAndTheBridgeKeepsWorking() throws Exception {
        assertEquals("1", System.getenv("DEBUGGER_MCP_TEST_HOOKS"), "run with DEBUGGER_MCP_TEST_HOOKS=1");
        Lib.init(cb, "");
        RuntimeException e = assertThrows(RuntimeException.class, () -> NativeBridge.backendCall("__panic", "{\"x\":1}"));
        assertTrue(e.getMessage().contains("Rust panic") && e.getMessage().contains("injected panic"), e.getMessage());
        cb.fixed.put("threads", "[]");
        assertEquals(true, call("threads", "{\"session_id\":\"s1\"}").get("ok"));
    }

    @Test
    void badInputIsRejectedWithClearErrors() throws Exception {
        Lib.init(cb, "");
        assertTrue(assertThrows(RuntimeException.class, () -> NativeBridge.pushEvent("{\"event\":\"nope\"}"))
                .getMessage().contains("malformed event"));
        assertThrows(RuntimeException.class, () -> NativeBridge.backendCall("threads", "not json"));
        assertEquals("not_found", error(call("no_such_op", "{}")).get("kind"));
        assertEquals("failed", error(call("frames", "{\"session_id\":\"s1\"}")).get("kind")); // missing args
        assertTrue(assertThrows(RuntimeException.class, () -> NativeBridge.exportHistory("xml", "{}"))
                .getMessage().contains("xml"));
        assertTrue(assertThrows(RuntimeException.class, () -> NativeBridge.history("{\"bogus\":1}"))
                .getMessage().contains("filter"));
    }

    @Test
    void eventsHistoryAndSettings() throws Exception {
        Lib.init(cb, "history_size = 50\n");
        NativeBridge.pushEvent("{\"event\":\"session_started\",\"session\":{\"id\":\"s1\",\"name\":\"App\",\"state\":\"running\"}}");
        assertEquals(1L, Json.obj(NativeBridge.status()).get("sessions"));
        NativeBridge.pushEvent("{\"event\":\"stopped\",\"session_id\":\"s1\"}");
        assertEquals(0L, Json.obj(NativeBridge.status()).get("sessions"));
        assertEquals("[]", NativeBridge.history("{}"));
        assertTrue(NativeBridge.exportHistory("csv", "").startsWith("id,") || NativeBridge.exportHistory("csv", "").isEmpty());
        NativeBridge.clearHistory();
        assertTrue(NativeBridge.settingsToml().contains("history_size = 50"));
        assertFalse(NativeBridge.saveSettings("brave_mod = true").isEmpty(), "a typo must be reported");
        assertEquals("", NativeBridge.saveSettings("backend_timeout_ms = 250\n"));
        assertTrue(NativeBridge.settingsToml().contains("backend_timeout_ms = 250"));
        // The new timeout applies to callbacks at once.
        cb.modes.put("threads", ScriptedCallbacks.Mode.HANG);
        long t0 = System.nanoTime();
        assertEquals("timeout", error(call("threads", "{\"session_id\":\"s1\"}")).get("kind"));
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 2000);
    }

    @Test
    void entryPointsBeforeInitThrowInsteadOfCrashing() throws Exception {
        Lib.load();
        NativeBridge.shutdown();
        RuntimeException e = assertThrows(RuntimeException.class, () -> NativeBridge.backendCall("projects", "{}"));
        assertTrue(e.getMessage().contains("not initialized"), e.getMessage());
        assertThrows(RuntimeException.class, () -> NativeBridge.handleHttp("GET", "/debugger-mcp", new String[0], new String[0], new byte[0], null));
        assertEquals(false, Json.obj(NativeBridge.status()).get("running"));
        NativeBridge.cancelHttp(42); // no-op
    }

    @Test
    void eightThreadsShareTheBridge() throws Exception {
        Lib.init(cb, "");
        cb.modes.put("sessions", ScriptedCallbacks.Mode.ASYNC);
        // Typed answers that carry the call's own argument back (ThreadInfo.name / SessionInfo.id).
        cb.answer = (op, args) -> {
            Map<String, Object> a = Json.obj(args);
            return op.equals("threads")
                    ? "[{\"id\":\"1\",\"name\":\"" + a.get("session_id") + "\",\"state\":\"paused\"}]"
                    : "[{\"id\":\"" + a.get("project") + "\",\"name\":\"App\",\"state\":\"paused\"}]";
        };
        AtomicInteger bad = new AtomicInteger();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            final int n = t;
            Thread th = new Thread(() -> {
                for (int i = 0; i < 1000; i++) {
                    String sid = "s" + n + "-" + i;
                    String op = i % 2 == 0 ? "threads" : "sessions";
                    String key = op.equals("threads") ? "session_id" : "project";
                    Map<String, Object> r = Json.obj(NativeBridge.backendCall(op, "{\"" + key + "\":\"" + sid + "\"}"));
                    // The echo answer carries this call's own args back: answers are never mixed up.
                    if (!Boolean.TRUE.equals(r.get("ok")) || !r.toString().contains(sid)) bad.incrementAndGet();
                }
            });
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) th.join();
        assertEquals(0, bad.get());
        assertEquals(0L, Json.obj(NativeBridge.status()).get("pending_callbacks"));
    }
}
