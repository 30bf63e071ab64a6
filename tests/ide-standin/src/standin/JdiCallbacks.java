package standin;

import static standin.Json.m;

import com.debuggermcp.bridge.DebuggerCallbacks;
import com.debuggermcp.bridge.NativeBridge;
import com.sun.jdi.*;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.*;
import com.sun.jdi.request.*;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The callback table (docs/CALLBACK_TABLE.md) implemented on JDI, debugging real JVMs: what the
 * IDE's XDebugger adapter does in IntelliJ, done here with the JDK's debugger API so the JNI path
 * is proven end to end. Project layout: {@code <root>/src} (Java sources) and {@code <root>/out}
 * (classes compiled with {@code javac -g}); run configurations are the main classes under src.
 *
 * {@link #call} returns at once: each op runs on a worker pool and answers with
 * {@link NativeBridge#complete}. Events are pushed from one JDI event-loop thread per session.
 */
public final class JdiCallbacks implements DebuggerCallbacks {
    public static final int TABLE_VERSION = 1;

    final Path root;
    final Path src;
    final Path out;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "jdi-callbacks");
        t.setDaemon(true);
        return t;
    });
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Map<String, Bp> breakpoints = new ConcurrentHashMap<>();
    private final AtomicInteger sessionSeq = new AtomicInteger();
    private final AtomicInteger bpSeq = new AtomicInteger();
    /** Answer of `confirm` (the IDE shows a dialog; the stand-in is told what to answer). */
    public volatile boolean confirmAnswer = true;
    /** Test fault injection: op name → behaviour ("throw" = call throws, "hang" = never answers). */
    public final Map<String, String> faults = new ConcurrentHashMap<>();

    public JdiCallbacks(Path root) {
        this.root = root.toAbsolutePath().normalize();
        this.src = this.root.resolve("src");
        this.out = this.root.resolve("out");
    }

    @Override
    public int tableVersion() {
        return TABLE_VERSION;
    }

    @Override
    public void call(long requestId, String op, String argsJson) {
        String fault = faults.get(op);
        if ("throw".equals(fault)) throw new IllegalStateException("injected failure in callback " + op);
        if ("hang".equals(fault)) return; // never answers: Rust's timeout must fire
        pool.execute(() -> {
            String json;
            boolean ok;
            try {
                json = Json.write(dispatch(op, Json.obj(argsJson)));
                ok = true;
            } catch (Fail f) {
                json = Json.write(m("kind", f.kind, "message", f.getMessage()));
                ok = false;
            } catch (VMDisconnectedException e) {
                json = Json.write(m("kind", "invalid_state", "message", "the debuggee is gone"));
                ok = false;
            } catch (Throwable t) {
                json = Json.write(m("kind", "failed", "message", t.toString()));
                ok = false;
            }
            NativeBridge.complete(requestId, ok, json);
        });
    }

    // ------------------------------------------------------------------------------------------
    // Errors

    static final class Fail extends RuntimeException {
        final String kind;

        Fail(String kind, String message) {
            super(message);
            this.kind = kind;
        }
    }

    static Fail notFound(String m) { return new Fail("not_found", m); }
    static Fail invalidState(String m) { return new Fail("invalid_state", m); }
    static Fail unsupported(String m) { return new Fail("unsupported", m); }
    static Fail failed(String m) { return new Fail("failed", m); }

    // ------------------------------------------------------------------------------------------
    // Dispatch: op names and argument keys are the Rust trait's method and parameter names.

    @SuppressWarnings("unchecked")
    Object dispatch(String op, Map<String, Object> a) throws Exception {
        switch (op) {
            case "handshake":
                return m("name", "jdi-standin", "table_version", (long) TABLE_VERSION, "can_confirm", true,
                        "supports_set_value", true, "supports_code_fragments", false,
                        "supports_exception_breakpoints", true, "exception_filters", List.of(),
                        "supports_force_return", true);
            case "projects":
                return List.of(m("name", root.getFileName().toString(), "root", root.toRealPath().toString()));
            case "run_configurations":
                project(a);
                return runConfigurations();
            case "launch":
                project(a);
                return launch((Map<String, Object>) a.get("request"));
            case "debug_test":
                project(a);
                return debugTest((Map<String, Object>) a.get("request"));
            case "sessions":
                project(a);
                return sessions.values().stream().sorted(Comparator.comparing(s -> s.seq))
                        .map(Session::info).collect(Collectors.toList());
            case "stop":
                session(a).stop(false);
                return null;
            case "terminate":
                session(a).stop(true);
                return null;
            case "breakpoints":
                project(a);
                return breakpoints.values().stream().sorted(Comparator.comparing(b -> b.seq))
                        .map(Bp::info).collect(Collectors.toList());
            case "add_line_breakpoint":
                project(a);
                return addLineBreakpoint((Map<String, Object>) a.get("spec"));
            case "add_exception_breakpoint":
                project(a);
                return addExceptionBreakpoint((Map<String, Object>) a.get("spec"));
            case "add_data_breakpoint":
                project(a);
                return addDataBreakpoint((Map<String, Object>) a.get("spec"));
            case "update_breakpoint":
                project(a);
                return updateBreakpoint(str(a, "id"), (Map<String, Object>) a.get("update"));
            case "remove_breakpoint":
                project(a);
                removeBreakpoint(str(a, "id"));
                return null;
            case "control":
                session(a).control((String) a.get("thread_id"), (Map<String, Object>) a.get("op"));
                return null;
            case "force_return":
                session(a).forceReturn(str(a, "thread_id"), str(a, "frame"), str(a, "value"));
                return null;
            case "threads":
                return session(a).threads();
            case "frames":
                return session(a).frames(str(a, "thread_id"), num(a, "offset"), num(a, "limit"));
            case "select_frame": {
                Session s = session(a);
                s.frame(str(a, "frame")); // validates the handle
                s.selectedFrame = str(a, "frame");
                return null;
            }
            case "frame_variables":
                return session(a).frameVariables(str(a, "frame"));
            case "children":
                return session(a).children(str(a, "handle"), num(a, "offset"), num(a, "limit"));
            case "set_value":
                return session(a).setValue(str(a, "handle"), str(a, "new_value"));
            case "evaluate":
                return session(a).evaluate((Map<String, Object>) a.get("request"));
            case "read_source":
                project(a);
                return readSource(str(a, "path"));
            case "confirm":
                project(a);
                return confirmAnswer;
            case "set_master_breakpoint":
                // Like the headless backends: the core keeps the dependency (engine::dependent).
                project(a);
                throw unsupported("no dependent breakpoints in the JDI stand-in");
            default:
                throw notFound("unknown op " + op);
        }
    }

    static String str(Map<String, Object> a, String k) {
        Object v = a.get(k);
        if (!(v instanceof String)) throw failed("argument " + k + " must be a string, got " + v);
        return (String) v;
    }

    static int num(Map<String, Object> a, String k) {
        Object v = a.get(k);
        if (!(v instanceof Number)) throw failed("argument " + k + " must be a number, got " + v);
        return ((Number) v).intValue();
    }

    static boolean bool(Map<String, Object> a, String k, boolean dflt) {
        Object v = a == null ? null : a.get(k);
        return v instanceof Boolean ? (Boolean) v : dflt;
    }

    private void project(Map<String, Object> a) throws IOException {
        String p = str(a, "project");
        boolean same;
        try {
            same = Path.of(p).toRealPath().equals(root.toRealPath());
        } catch (IOException e) {
            same = false;
        }
        if (!same) throw notFound("no open project at " + p + " (open: " + root.toRealPath() + ")");
    }

    private Session session(Map<String, Object> a) {
        String id = str(a, "session_id");
        Session s = sessions.get(id);
        if (s == null) throw notFound("no debug session " + id);
        return s;
    }

    /** Tests observe the pushed events here (the engine consumes them on the Rust side). */
    public static volatile java.util.function.Consumer<String> eventTap;

    static void push(Map<String, Object> event) {
        String json = Json.write(event);
        NativeBridge.pushEvent(json);
        java.util.function.Consumer<String> tap = eventTap;
        if (tap != null) tap.accept(json);
    }

    // ------------------------------------------------------------------------------------------
    // Project, run configurations, sources

    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern MAIN = Pattern.compile("public\\s+static\\s+void\\s+main\\s*\\(");

    /** Main classes of the project: name = simple class name, description = the main class. */
    List<Object> runConfigurations() throws IOException {
        List<Object> out = new ArrayList<>();
        for (Path f : javaFiles()) {
            String text = Files.readString(f);
            if (!MAIN.matcher(text).find()) continue;
            String cls = className(f);
            out.add(m("name", cls.substring(cls.lastIndexOf('.') + 1), "type", "Application", "type_id", "Application",
                    "is_temporary", false, "can_run", true, "can_debug", true, "description", cls,
                    "source", "stand-in (main classes under src/)"));
        }
        out.sort(Comparator.comparing(o -> (String) ((Map<?, ?>) o).get("name")));
        return out;
    }

    private List<Path> javaFiles() throws IOException {
        try (Stream<Path> s = Files.walk(src)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().collect(Collectors.toList());
        }
    }

    /** demo/App.java → demo.App (from the package declaration, like the IDE's PSI would). */
    String className(Path file) throws IOException {
        String text = Files.readString(file);
        Matcher pm = PACKAGE.matcher(text);
        String simple = file.getFileName().toString().replaceFirst("\\.java$", "");
        return pm.find() ? pm.group(1) + "." + simple : simple;
    }

    Path sourceFile(String path) {
        Path p = Path.of(path).toAbsolutePath().normalize();
        if (!p.startsWith(root)) throw failed("path outside the project: " + path);
        return p;
    }

    String readSource(String path) throws IOException {
        Path p = sourceFile(path);
        if (!Files.isRegularFile(p)) throw notFound("no such file " + path);
        return Files.readString(p, StandardCharsets.UTF_8);
    }

    /** Absolute source path of a JDI location, when the file is in the project. */
    String pathOf(Location loc) {
        try {
            Path p = src.resolve(loc.sourcePath());
            if (Files.exists(p)) return p.toString();
        } catch (AbsentInformationException ignored) {
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------
    // Launch and sessions

    /**
     * Stands in for the IDE's run configuration producers: a test id `pkg.Class#method` or
     * `pkg.Class` whose class has a main method runs that class under the debugger (the plugin
     * builds a temporary JUnit/pytest configuration from the PSI element instead). An id naming
     * no class of the project is not_found, like the plugin's PSI lookup.
     */
    Object debugTest(Map<String, Object> req) throws Exception {
        String id = req == null ? null : (String) req.get("test_id");
        if (id == null || id.isBlank()) throw failed("debug_test needs a test_id");
        String cls = id.contains("#") ? id.substring(0, id.indexOf('#')) : id;
        for (Object o : runConfigurations()) {
            if (cls.equals(((Map<?, ?>) o).get("description"))) {
                return launch(m("command", cls, "mode", "debug", "stop_on_exception", bool(req, "stop_on_exception", false)));
            }
        }
        throw notFound("no test '" + id + "' in the project");
    }

    Object launch(Map<String, Object> req) throws Exception {
        Object target = req == null ? null : req.get("attach");
        if (target instanceof Map && ((Map<?, ?>) target).get("pid") instanceof Number) {
            return attach(((Number) ((Map<?, ?>) target).get("pid")).longValue());
        }
        String config = req == null ? null : (String) req.get("configuration");
        String command = req == null ? null : (String) req.get("command");
        String mode = req == null || req.get("mode") == null ? "debug" : (String) req.get("mode");
        String mainClass;
        String programArgs = "";
        if (config != null) {
            mainClass = null;
            for (Object o : runConfigurations()) {
                Map<?, ?> rc = (Map<?, ?>) o;
                if (config.equals(rc.get("name")) || config.equals(rc.get("description"))) mainClass = (String) rc.get("description");
            }
            if (mainClass == null) throw notFound("no run configuration named " + config);
        } else if (command != null && !command.isBlank()) {
            String[] parts = command.trim().split("\\s+", 2);
            mainClass = parts[0];
            programArgs = parts.length > 1 ? parts[1] : "";
        } else {
            throw failed("launch needs a configuration or a command");
        }
        Session s = new Session(this, "s" + sessionSeq.incrementAndGet(), mainClass, config, mode,
                bool(req, "stop_on_entry", false), bool(req, "stop_on_exception", false));
        sessions.put(s.id, s);
        s.start(programArgs);
        Map<String, Object> info = s.info();
        push(m("event", "session_started", "session", info));
        s.go();
        return info;
    }

    /** The plugin's attach by pid (AttachOps.kt), on JDI: a JVM whose JDWP agent listens. */
    Object attach(long pid) throws Exception {
        if (ProcessHandle.of(pid).isEmpty()) {
            throw notFound("no process with pid " + pid + " is running on this machine (it may have ended)");
        }
        Session s = new Session(this, "s" + sessionSeq.incrementAndGet(), "pid " + pid, null, "debug", false, false);
        try {
            s.attach(pid);
        } catch (java.io.IOException | com.sun.jdi.connect.IllegalConnectorArgumentsException e) {
            throw unsupported("no debugger can attach to process " + pid + ": " + e.getMessage()
                    + "; a JVM must run with -agentlib:jdwp=transport=dt_socket,server=y");
        }
        sessions.put(s.id, s);
        Map<String, Object> info = s.info();
        push(m("event", "session_started", "session", info));
        s.go();
        return s.info();
    }

    // ------------------------------------------------------------------------------------------
    // Breakpoints (project level, applied to every session, bound as classes load)

    final class Bp {
        final String id;
        final int seq;
        final String kind; // line | exception | data
        String file;
        String className;
        int requestedLine;
        Integer line;
        boolean verified;
        String message;
        boolean enabled = true;
        String condition;
        String logMessage;
        String hitCondition;
        String suspendPolicy = "all";
        boolean temporary;
        long hits;
        String exception;
        boolean caught = true;
        boolean uncaught = true;
        /** Data breakpoints (field watchpoints): the expression, access and the field. */
        String watch;
        String access;
        String fieldClass;
        String fieldName;
        /** Requests per session id. */
        final Map<String, List<EventRequest>> requests = new ConcurrentHashMap<>();

        Bp(String kind) {
            this.seq = bpSeq.incrementAndGet();
            this.id = "b" + seq;
            this.kind = kind;
        }

        Map<String, Object> info() {
            Map<String, Object> i = m("id", id, "kind", kind, "verified", verified, "enabled", enabled,
                    "suspend_policy", suspendPolicy, "temporary", temporary);
            if (kind.equals("line")) {
                i.put("file", file);
                i.put("requested_line", (long) requestedLine);
                i.put("line", line == null ? null : (long) (int) line);
            } else if (kind.equals("data")) {
                i.put("watch", watch);
                i.put("access", access);
            } else {
                i.put("exception", exception);
                i.put("caught", caught);
                i.put("uncaught", uncaught);
            }
            i.put("message", message);
            i.put("condition", condition);
            i.put("log_message", logMessage);
            i.put("hit_condition", hitCondition);
            i.put("hit_count", hits);
            return i;
        }

        int suspendJdi() {
            switch (suspendPolicy) {
                case "thread": return EventRequest.SUSPEND_EVENT_THREAD;
                case "none": return EventRequest.SUSPEND_NONE;
                default: return EventRequest.SUSPEND_ALL;
            }
        }
    }

    Object addLineBreakpoint(Map<String, Object> spec) throws IOException {
        Path file = sourceFile(str(spec, "file"));
        if (!Files.isRegularFile(file)) throw notFound("no such file " + file);
        int line = num(spec, "line");
        long lines = Files.readAllLines(file).size();
        if (line < 1 || line > lines) throw failed("line " + line + " is outside " + file.getFileName() + " (1-" + lines + ")");
        // Re-setting a line updates the existing breakpoint (as the IDE does).
        Bp bp = breakpoints.values().stream()
                .filter(b -> b.kind.equals("line") && b.file.equals(file.toString()) && b.requestedLine == line)
                .findFirst().orElse(null);
        if (bp == null) {
            bp = new Bp("line");
            bp.file = file.toString();
            bp.requestedLine = line;
            bp.className = className(file);
            breakpoints.put(bp.id, bp);
        }
        applyLineSpec(bp, spec);
        rebind(bp);
        return bp.info();
    }

    private void applyLineSpec(Bp bp, Map<String, Object> spec) {
        bp.condition = emptyToNull((String) spec.get("condition"));
        bp.logMessage = emptyToNull((String) spec.get("log_message"));
        bp.hitCondition = emptyToNull((String) spec.get("hit_condition"));
        if (spec.get("suspend_policy") != null) bp.suspendPolicy = (String) spec.get("suspend_policy");
        bp.enabled = bool(spec, "enabled", true);
        bp.temporary = bool(spec, "temporary", false);
    }

    static String emptyToNull(String s) { return s == null || s.isEmpty() ? null : s; }

    Object addExceptionBreakpoint(Map<String, Object> spec) {
        Bp bp = new Bp("exception");
        bp.exception = str(spec, "exception");
        bp.caught = bool(spec, "caught", true);
        bp.uncaught = bool(spec, "uncaught", true);
        bp.condition = emptyToNull((String) spec.get("condition"));
        bp.enabled = bool(spec, "enabled", true);
        if (spec.get("suspend_policy") != null) bp.suspendPolicy = (String) spec.get("suspend_policy");
        breakpoints.put(bp.id, bp);
        rebind(bp);
        return bp.info();
    }

    /**
     * A field watchpoint, what IntelliJ's Java field watchpoint does (JavaFieldBreakpointType →
     * FieldBreakpoint: a ModificationWatchpointRequest and/or AccessWatchpointRequest on the field,
     * for every instance). The expression names a field, resolved in the paused frame: `name` (a
     * field of the frame's class), `obj.name` (a field of what obj is at run time) or
     * `Class.name` (a static field). A local variable cannot be watched by the JVM.
     */
    Object addDataBreakpoint(Map<String, Object> spec) {
        Session s = sessions.get(str(spec, "session_id"));
        if (s == null) throw notFound("no debug session " + spec.get("session_id"));
        String expression = str(spec, "expression").trim();
        String access = spec.get("access") == null ? "write" : (String) spec.get("access");
        if (!List.of("write", "read", "read_write").contains(access)) throw failed("access must be write, read or read_write, got " + access);
        Field field = s.resolveField(str(spec, "frame"), expression);
        Bp bp = new Bp("data");
        bp.watch = expression;
        bp.access = access;
        bp.fieldClass = field.declaringType().name();
        bp.fieldName = field.name();
        bp.condition = emptyToNull((String) spec.get("condition"));
        bp.hitCondition = emptyToNull((String) spec.get("hit_condition"));
        bp.message = "field " + bp.fieldClass + "." + bp.fieldName + " (every instance)";
        breakpoints.put(bp.id, bp);
        rebind(bp);
        return bp.info();
    }

    Object updateBreakpoint(String id, Map<String, Object> u) {
        Bp bp = breakpoints.get(id);
        if (bp == null) throw notFound("no breakpoint " + id);
        if (u.containsKey("enabled") && u.get("enabled") != null) bp.enabled = (Boolean) u.get("enabled");
        if (u.get("condition") != null) bp.condition = emptyToNull((String) u.get("condition"));
        if (u.get("log_message") != null) bp.logMessage = emptyToNull((String) u.get("log_message"));
        if (u.get("hit_condition") != null) bp.hitCondition = emptyToNull((String) u.get("hit_condition"));
        if (u.get("suspend_policy") != null) bp.suspendPolicy = (String) u.get("suspend_policy");
        if (u.get("temporary") != null) bp.temporary = (Boolean) u.get("temporary");
        rebind(bp);
        return bp.info();
    }

    void removeBreakpoint(String id) {
        Bp bp = breakpoints.remove(id);
        if (bp == null) throw notFound("no breakpoint " + id);
        for (Session s : sessions.values()) s.unbind(bp);
    }

    /** (Re)creates the breakpoint's requests in every live session. */
    void rebind(Bp bp) {
        for (Session s : sessions.values()) {
            s.unbind(bp);
            s.bind(bp);
        }
    }

    Collection<Bp> allBreakpoints() { return breakpoints.values(); }

    Bp breakpoint(String id) { return breakpoints.get(id); }

    void forget(Bp bp) { breakpoints.remove(bp.id); }

    Collection<Session> allSessions() { return sessions.values(); }

    LaunchingConnector connector() {
        for (Connector c : Bootstrap.virtualMachineManager().launchingConnectors()) {
            if (c.name().equals("com.sun.jdi.CommandLineLaunch")) return (LaunchingConnector) c;
        }
        return Bootstrap.virtualMachineManager().defaultConnector();
    }

    void sessionEnded(Session s) {
        // Kept in the map as stopped so `sessions` reports how it ended.
    }

    ExecutorService pool() { return pool; }

    static void pump(InputStream in, String sessionId, String category) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[8192];
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    push(m("event", "output", "session_id", sessionId, "category", category,
                            "text", new String(buf, 0, n, StandardCharsets.UTF_8)));
                }
            } catch (IOException ignored) {
                // process ended
            }
        }, "standin-output-" + category);
        t.setDaemon(true);
        t.start();
    }
}
