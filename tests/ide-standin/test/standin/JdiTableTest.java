package standin;

import static org.junit.jupiter.api.Assertions.*;

import com.debuggermcp.bridge.NativeBridge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Every op of the callback table on the real JDI table, driven from Rust's typed backend
 * (NativeBridge.backendCall → JniBackend → JdiCallbacks → complete), against a real JVM.
 * Lines are found by the debuggee's `@marker` comments.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class JdiTableTest {
    static Path project;
    static String root;
    static String app;
    static String point;
    static final LinkedBlockingQueue<Map<String, Object>> events = new LinkedBlockingQueue<>();
    static final List<Map<String, Object>> seen = new ArrayList<>();

    @BeforeAll
    static void up() throws Exception {
        project = Path.of(System.getProperty("debuggermcp.project")).toAbsolutePath();
        boolean verbose = System.getenv("JDI_TEST_VERBOSE") != null;
        JdiCallbacks.eventTap = json -> {
            if (verbose) System.err.println("EVENT " + json);
            events.add(Json.obj(json));
        };
        Lib.init(new JdiCallbacks(project), "backend_timeout_ms = 20000\n");
        root = project.toRealPath().toString();
        app = project.resolve("src/demo/App.java").toString();
        point = project.resolve("src/demo/Point.java").toString();
    }

    @AfterAll
    static void down() {
        JdiCallbacks.eventTap = null;
        NativeBridge.shutdown();
    }

    static int line(String file, String marker) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(file));
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains("// " + marker)) return i + 1;
        throw new AssertionError("no marker " + marker);
    }

    static Object ok(String op, Object args) {
        Map<String, Object> r = Json.obj(NativeBridge.backendCall(op, Json.write(args)));
        assertEquals(true, r.get("ok"), () -> op + " failed: " + r);
        return r.get("result");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> err(String op, Object args) {
        Map<String, Object> r = Json.obj(NativeBridge.backendCall(op, Json.write(args)));
        assertEquals(false, r.get("ok"), () -> op + " should fail: " + r);
        return (Map<String, Object>) r.get("error");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) { return (Map<String, Object>) o; }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> list(Object o) { return (List<Map<String, Object>>) o; }

    static Map<String, Object> await(Predicate<Map<String, Object>> p, String what) throws Exception {
        synchronized (seen) {
            for (Map<String, Object> e : seen) if (p.test(e)) { seen.remove(e); return e; }
        }
        long deadline = System.currentTimeMillis() + 20000;
        while (System.currentTimeMillis() < deadline) {
            Map<String, Object> e = events.poll(100, TimeUnit.MILLISECONDS);
            if (e == null) continue;
            if (p.test(e)) return e;
            synchronized (seen) { seen.add(e); }
        }
        throw new AssertionError("no event: " + what + "; seen " + seen);
    }

    static Map<String, Object> paused(String sid) throws Exception {
        return await(e -> "paused".equals(e.get("event")) && sid.equals(e.get("session_id")), "paused " + sid);
    }

    static Map<String, Object> top(String sid, String thread) {
        Map<String, Object> page = map(ok("frames", Json.m("session_id", sid, "thread_id", thread, "offset", 0L, "limit", 50L)));
        return list(page.get("frames")).get(0);
    }

    static Map<String, Object> byName(List<Map<String, Object>> nodes, String name) {
        return nodes.stream().filter(n -> name.equals(n.get("name"))).findFirst()
                .orElseThrow(() -> new AssertionError("no value " + name + " in " + nodes));
    }

    static void clearEvents() {
        events.clear();
        synchronized (seen) { seen.clear(); }
    }

    @Test
    @Order(1)
    void projectsAndRunConfigurations() {
        assertEquals(root, list(ok("projects", Json.m())).get(0).get("root"));
        List<Map<String, Object>> rcs = list(ok("run_configurations", Json.m("project", root)));
        assertEquals(List.of("Account", "App", "Spinner"), rcs.stream().map(r -> r.get("name")).collect(java.util.stream.Collectors.toList()));
        assertEquals("not_found", err("run_configurations", Json.m("project", "/nowhere")).get("kind"));
        assertTrue(((String) ok("read_source", Json.m("project", root, "path", app))).contains("@print"));
        assertEquals("failed", err("read_source", Json.m("project", root, "path", "/etc/passwd")).get("kind"));
        assertEquals(true, ok("confirm", Json.m("project", root, "request", Json.m("title", "t", "message", "m"))));
        assertEquals("jdi-standin", map(ok("handshake", Json.m())).get("name"));
    }

    @Test
    @Order(2)
    void breakpointsStepsValuesEvaluationRunToAndExit() throws Exception {
        clearEvents();
        int ctor = line(point, "@point-ctor");
        int print = line(app, "@print");
        Map<String, Object> bpPoint = map(ok("add_line_breakpoint", Json.m("project", root, "spec", Json.m("file", point, "line", (long) ctor))));
        assertEquals(false, bpPoint.get("verified"), "no session yet: not bound");
        Map<String, Object> bpPrint = map(ok("add_line_breakpoint", Json.m("project", root, "spec", Json.m("file", app, "line", (long) print))));
        assertEquals(2, list(ok("breakpoints", Json.m("project", root))).size());

        Map<String, Object> session = map(ok("launch", Json.m("project", root, "request", Json.m("configuration", "App"))));
        String sid = (String) session.get("id");
        await(e -> "session_started".equals(e.get("event")), "session_started");
        // Point is loaded lazily: its breakpoint binds on class prepare and says so.
        Map<String, Object> changed = await(e -> "breakpoint_changed".equals(e.get("event"))
                && bpPoint.get("id").equals(map(e.get("breakpoint")).get("id")), "breakpoint_changed Point");
        assertEquals(true, map(changed.get("breakpoint")).get("verified"));

        Map<String, Object> p1 = paused(sid);
        assertEquals("breakpoint", p1.get("reason"));
        assertEquals(List.of(bpPoint.get("id")), p1.get("breakpoint_ids"));
        String thread = (String) p1.get("thread_id");
        Map<String, Object> f0 = top(sid, thread);
        assertEquals((long) ctor, f0.get("line"));
        assertEquals("demo.Point", f0.get("class_name"));
        assertEquals(point, f0.get("file"));
        List<Map<String, Object>> vars = list(ok("frame_variables", Json.m("session_id", sid, "frame", f0.get("handle"))));
        assertEquals("3", byName(vars, "x").get("value"), "inner Point(3, 4, null) is built first");
        assertEquals("argument", byName(vars, "x").get("scope"));
        assertEquals("null", byName(vars, "next").get("value"));
        assertEquals("this", byName(vars, "this").get("scope"));

        ok("remove_breakpoint", Json.m("project", root, "id", bpPoint.get("id")));
        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "step_out")));
        assertEquals("step", paused(sid).get("reason"));
        assertEquals("demo.App", top(sid, thread).get("class_name"));

        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "resume")));
        await(e -> "resumed".equals(e.get("event")), "resumed");
        Map<String, Object> p2 = paused(sid);
        assertEquals(List.of(bpPrint.get("id")), p2.get("breakpoint_ids"));
        Map<String, Object> main = top(sid, thread);
        assertEquals((long) print, main.get("line"));
        String frame = (String) main.get("handle");

        // Values: primitives, strings, arrays, nested objects.
        vars = list(ok("frame_variables", Json.m("session_id", sid, "frame", frame)));
        assertEquals("7", byName(vars, "n").get("value"));
        assertEquals("int", byName(vars, "n").get("type"));
        assertEquals("0.5", byName(vars, "ratio").get("value"));
        assertEquals("\"hello\"", byName(vars, "greeting").get("value"));
        assertEquals("1234567890123", byName(vars, "big").get("value"));
        assertEquals("true", byName(vars, "flag").get("value"));
        assertEquals("'x'", byName(vars, "letter").get("value"));
        assertEquals("49", byName(vars, "sq").get("value"));
        assertEquals("150", byName(vars, "total").get("value"));
        assertEquals("argument", byName(vars, "args").get("scope"));
        Map<String, Object> words = byName(vars, "words");
        assertEquals(2L, words.get("child_count"));
        Map<String, Object> appVar = byName(vars, "app");
        assertEquals(true, appVar.get("has_children"));
        List<Map<String, Object>> fields = list(map(ok("children", Json.m("session_id", sid, "handle", appVar.get("children_handle"), "offset", 0L, "limit", 20L))).get("children"));
        assertEquals("\"demo\"", byName(fields, "name").get("value"));
        Map<String, Object> origin = byName(fields, "origin");
        List<Map<String, Object>> originFields = list(map(ok("children", Json.m("session_id", sid, "handle", origin.get("children_handle"), "offset", 0L, "limit", 20L))).get("children"));
        assertEquals("1", byName(originFields, "x").get("value"));
        Map<String, Object> next = byName(originFields, "next");
        List<Map<String, Object>> nextFields = list(map(ok("children", Json.m("session_id", sid, "handle", next.get("children_handle"), "offset", 0L, "limit", 20L))).get("children"));
        assertEquals("3", byName(nextFields, "x").get("value"));
        Map<String, Object> values = byName(fields, "values");
        Map<String, Object> page = map(ok("children", Json.m("session_id", sid, "handle", values.get("children_handle"), "offset", 1L, "limit", 2L)));
        assertEquals(5L, page.get("total"));
        assertEquals(List.of("[1]", "[2]"), list(page.get("children")).stream().map(c -> c.get("name")).collect(java.util.stream.Collectors.toList()));
        assertEquals("30", list(page.get("children")).get(1).get("value"));

        // Evaluation: locals, fields, arrays, method calls (invoked in the debuggee).
        assertEquals("14", eval(sid, thread, frame, "n * 2"));
        assertEquals("3", eval(sid, thread, frame, "app.origin.next.x"));
        assertEquals("30", eval(sid, thread, frame, "app.values[2]"));
        assertEquals("5", eval(sid, thread, frame, "app.values.length"));
        assertEquals("150", eval(sid, thread, frame, "app.total()"));
        assertEquals("\"demo:6\"", eval(sid, thread, frame, "app.describe(1)"));
        assertEquals("5", eval(sid, thread, frame, "greeting.length()"));
        assertEquals("9", eval(sid, thread, frame, "square(3)"));
        assertEquals("49", eval(sid, thread, frame, "App.counter"));
        assertEquals("49", eval(sid, thread, frame, "counter"));
        assertEquals("true", eval(sid, thread, frame, "sq == 49 && flag"));
        Map<String, Object> bad = err("evaluate", Json.m("session_id", sid, "request", Json.m("thread_id", thread, "frame", frame, "expression", "nope + 1")));
        assertEquals("failed", bad.get("kind"));
        assertTrue(((String) bad.get("message")).contains("nope"), bad.toString());

        // set_value on a local, then read it back; a bad value changes nothing.
        vars = list(ok("frame_variables", Json.m("session_id", sid, "frame", frame)));
        Map<String, Object> n = byName(vars, "n");
        assertEquals("8", map(ok("set_value", Json.m("session_id", sid, "handle", n.get("set_handle"), "new_value", "8"))).get("value"));
        assertEquals("failed", err("set_value", Json.m("session_id", sid, "handle", n.get("set_handle"), "new_value", "abc")).get("kind"));
        assertEquals("8", eval(sid, thread, frame, "n"));

        List<Map<String, Object>> threads = list(ok("threads", Json.m("session_id", sid)));
        assertEquals("paused", byName(threads, "main").get("state"));
        ok("select_frame", Json.m("session_id", sid, "thread_id", thread, "frame", frame));
        assertEquals("not_found", err("select_frame", Json.m("session_id", sid, "thread_id", thread, "frame", "999:0")).get("kind"));

        // Step over: the next line with code.
        ok("control", Json.m("session_id", sid, "thread_id", thread, "op", Json.m("op", "step_over")));
        assertEquals("step", paused(sid).get("reason"));
        assertEquals((long) line(app, "@throw"), top(sid, thread).get("line"));
        // Value handles die on resume.
        assertEquals("not_found", err("children", Json.m("session_id", sid, "handle", appVar.get("children_handle"), "offset", 0L, "limit", 5L)).get("kind"));

        // Exception breakpoint (caught exception).
        Map<String, Object> exBp = map(ok("add_exception_breakpoint", Json.m("project", root, "spec", Json.m("exception", "java.lang.IllegalStateException", "caught", true, "uncaught", true))));
        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "resume")));
        Map<String, Object> p3 = paused(sid);
        assertEquals("exception", p3.get("reason"));
        assertTrue(((String) p3.get("description")).contains("IllegalStateException: boom"), p3.toString());
        ok("remove_breakpoint", Json.m("project", root, "id", exBp.get("id")));

        // Run to line, then a conditional breakpoint.
        int loop = line(app, "@loop");
        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "run_to", "file", app, "line", (long) loop)));
        Map<String, Object> p4 = paused(sid);
        assertEquals("goto", p4.get("reason"));
        assertEquals((long) loop, top(sid, thread).get("line"));
        Map<String, Object> cond = map(ok("add_line_breakpoint", Json.m("project", root, "spec", Json.m("file", app, "line", (long) loop, "condition", "i == 2"))));
        assertEquals(true, cond.get("verified"));
        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "resume")));
        paused(sid);
        String f = (String) top(sid, thread).get("handle");
        assertEquals("2", eval(sid, thread, f, "i"), "the condition skipped i = 0 and 1");

        // Disable it and run to the end.
        assertEquals(false, map(ok("update_breakpoint", Json.m("project", root, "id", cond.get("id"), "update", Json.m("enabled", false)))).get("enabled"));
        ok("remove_breakpoint", Json.m("project", root, "id", bpPrint.get("id")));
        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "resume")));
        Map<String, Object> stopped = await(e -> "stopped".equals(e.get("event")) && sid.equals(e.get("session_id")), "stopped");
        assertEquals(0L, stopped.get("exit_code"));
        StringBuilder out = new StringBuilder();
        for (Map<String, Object> e : new ArrayList<>(seen)) if ("output".equals(e.get("event"))) out.append(e.get("text"));
        Map<String, Object> e;
        while ((e = events.poll()) != null) if ("output".equals(e.get("event"))) out.append(e.get("text"));
        assertTrue(out.toString().contains("sq=49 total=150"), out.toString());
        assertEquals("stopped", byName(list(ok("sessions", Json.m("project", root))), "App").get("state"));
        assertEquals("invalid_state", err("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "resume"))).get("kind"));
        ok("remove_breakpoint", Json.m("project", root, "id", cond.get("id")));
        assertEquals("not_found", err("remove_breakpoint", Json.m("project", root, "id", cond.get("id"))).get("kind"));
    }

    static String eval(String sid, String thread, String frame, String expr) {
        return (String) map(ok("evaluate", Json.m("session_id", sid, "request", Json.m("thread_id", thread, "frame", frame, "expression", expr)))).get("value");
    }

    @Test
    @Order(3)
    void stepIntoAndOutOfAMethod() throws Exception {
        clearEvents();
        int call = line(app, "@call-square");
        Map<String, Object> bp = map(ok("add_line_breakpoint", Json.m("project", root, "spec", Json.m("file", app, "line", (long) call))));
        String sid = (String) map(ok("launch", Json.m("project", root, "request", Json.m("configuration", "App")))).get("id");
        String thread = (String) paused(sid).get("thread_id");
        assertEquals((long) call, top(sid, thread).get("line"));
        ok("control", Json.m("session_id", sid, "thread_id", thread, "op", Json.m("op", "step_into")));
        paused(sid);
        Map<String, Object> in = top(sid, thread);
        assertEquals("square", in.get("method_name"));
        assertEquals((long) line(app, "@square-body"), in.get("line"));
        ok("control", Json.m("session_id", sid, "thread_id", thread, "op", Json.m("op", "step_over")));
        paused(sid);
        assertEquals((long) line(app, "@square-return"), top(sid, thread).get("line"));
        ok("control", Json.m("session_id", sid, "thread_id", thread, "op", Json.m("op", "step_out")));
        paused(sid);
        assertEquals("main", top(sid, thread).get("method_name"));
        ok("control", Json.m("session_id", sid, "thread_id", thread, "op", Json.m("op", "step_over")));
        paused(sid);
        assertEquals((long) line(app, "@after-square"), top(sid, thread).get("line"));
        ok("remove_breakpoint", Json.m("project", root, "id", bp.get("id")));
        ok("stop", Json.m("session_id", sid));
        await(e -> "stopped".equals(e.get("event")) && sid.equals(e.get("session_id")), "stopped");
    }

    @Test
    @Order(4)
    void stopOnEntryTracepointsAndPauseOfARunningProgram() throws Exception {
        clearEvents();
        int afterN = line(app, "@call-square");
        Map<String, Object> trace = map(ok("add_line_breakpoint", Json.m("project", root, "spec",
                Json.m("file", app, "line", (long) afterN, "log_message", "n={n} greeting={greeting}"))));
        String sid = (String) map(ok("launch", Json.m("project", root, "request", Json.m("configuration", "App", "stop_on_entry", true)))).get("id");
        Map<String, Object> entry = paused(sid);
        assertEquals("entry", entry.get("reason"));
        assertEquals((long) line(app, "@main-first"), top(sid, (String) entry.get("thread_id")).get("line"));
        ok("control", Json.m("session_id", sid, "thread_id", null, "op", Json.m("op", "resume")));
        Map<String, Object> out = await(e -> "output".equals(e.get("event")) && "tracepoint".equals(e.get("category")), "tracepoint output");
        assertEquals("n=7 greeting=hello\n", out.get("text"));
        await(e -> "stopped".equals(e.get("event")) && sid.equals(e.get("session_id")), "stopped (a tracepoint does not pause)");
        ok("remove_breakpoint", Json.m("project", root, "id", trace.get("id")));

        String spin = (String) map(ok("launch", Json.m("project", root, "request", Json.m("configuration", "Spinner")))).get("id");
        assertEquals("invalid_state", err("control", Json.m("session_id", spin, "thread_id", null, "op", Json.m("op", "step_over"))).get("kind"));
        await(e -> "output".equals(e.get("event")) && spin.equals(e.get("session_id")) && ((String) e.get("text")).contains("spinner started"), "spinner output");
        ok("control", Json.m("session_id", spin, "thread_id", null, "op", Json.m("op", "pause")));
        Map<String, Object> p = paused(spin);
        assertEquals("pause", p.get("reason"));
        Map<String, Object> frames = map(ok("frames", Json.m("session_id", spin, "thread_id", p.get("thread_id"), "offset", 0L, "limit", 100L)));
        assertTrue(list(frames.get("frames")).stream().anyMatch(fr -> "main".equals(fr.get("method_name")) && "demo.Spinner".equals(fr.get("class_name"))), frames.toString());
        ok("stop", Json.m("session_id", spin));
        await(e -> "stopped".equals(e.get("event")) && spin.equals(e.get("session_id")), "spinner stopped");
        assertEquals("not_found", err("threads", Json.m("session_id", "s999")).get("kind"));
    }
}
