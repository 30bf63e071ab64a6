package standin;

import static standin.JdiCallbacks.*;
import static standin.Json.m;

import standin.JdiCallbacks.Bp;

import com.sun.jdi.*;
import com.sun.jdi.connect.Connector;
import com.sun.jdi.connect.LaunchingConnector;
import com.sun.jdi.event.*;
import com.sun.jdi.request.*;
import java.util.*;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One debugged JVM (launched through JDI) and the per-session value table cleared on resume. */
final class Session {
    private static final AtomicInteger SEQ = new AtomicInteger();

    final JdiCallbacks owner;
    final String id;
    final int seq = SEQ.incrementAndGet();
    final String mainClass;
    final String config;
    final String mode;
    final boolean stopOnEntry;
    final boolean stopOnException;
    VirtualMachine vm;
    Process process;
    /** The pid of a JVM this session attached to (it ran before; ending the session detaches). */
    Long attachedPid;
    volatile String state = "starting";
    volatile ThreadReference pausedThread;
    volatile String selectedFrame;
    volatile Integer exitCode;
    private EventRequest exceptionOnAll;
    /** Method return values after a step (IntelliJ's "Show Method Return Values"). */
    private ReturnValues returns;
    private final List<EventRequest> runTo = new ArrayList<>();

    /** Value handles: valid until the next resume (SPEC §4). */
    private final Map<String, Val> values = new ConcurrentHashMap<>();
    private final AtomicInteger valueSeq = new AtomicInteger();

    Session(JdiCallbacks owner, String id, String mainClass, String config, String mode, boolean stopOnEntry,
            boolean stopOnException) {
        this.owner = owner;
        this.id = id;
        this.mainClass = mainClass;
        this.config = config;
        this.mode = mode;
        this.stopOnEntry = stopOnEntry;
        this.stopOnException = stopOnException;
    }

    Map<String, Object> info() {
        return m("id", id, "name", config != null ? config : mainClass, "state", state, "run_configuration", config,
                "process_id", attachedPid != null ? attachedPid : process == null ? null : process.pid(), "mode", mode,
                "attached", attachedPid != null ? Boolean.TRUE : null);
    }

    // --------------------------------------------------------------------------------------------
    // Lifecycle

    void start(String programArgs) throws Exception {
        if (mode.equals("run")) {
            List<String> cmd = new ArrayList<>(List.of(javaBin(), "-cp", owner.out.toString(), mainClass));
            if (!programArgs.isBlank()) cmd.addAll(Arrays.asList(programArgs.split("\\s+")));
            process = new ProcessBuilder(cmd).start();
            return;
        }
        LaunchingConnector c = owner.connector();
        Map<String, Connector.Argument> args = c.defaultArguments();
        args.get("main").setValue((mainClass + " " + programArgs).trim());
        args.get("options").setValue("-cp " + owner.out);
        args.get("suspend").setValue("true");
        vm = c.launch(args);
        process = vm.process();
    }

    static String javaBin() {
        return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Attaches to a running JVM by pid as IntelliJ's JavaAttachDebuggerProvider does: a JVM whose
     * JDWP agent listens (server=y); JDI's ProcessAttachingConnector finds its address through the
     * Attach API (the agent property sun.jdwp.listenerAddress), as the provider does.
     */
    void attach(long pid) throws Exception {
        com.sun.jdi.connect.AttachingConnector c = null;
        for (Connector x : com.sun.jdi.Bootstrap.virtualMachineManager().attachingConnectors()) {
            if (x.name().equals("com.sun.jdi.ProcessAttach")) c = (com.sun.jdi.connect.AttachingConnector) x;
        }
        if (c == null) throw new IllegalStateException("this JDK has no com.sun.jdi.ProcessAttach connector");
        Map<String, Connector.Argument> args = c.defaultArguments();
        args.get("pid").setValue(Long.toString(pid));
        args.get("timeout").setValue("10000");
        vm = c.attach(args);
        attachedPid = pid;
    }

    /** Starts output pumping and the event loop, then lets the program run. */
    void go() {
        if (process != null) {
            pump(process.getInputStream(), id, "stdout");
            pump(process.getErrorStream(), id, "stderr");
        }
        if (vm == null) {
            state = "running";
            Thread t = new Thread(() -> {
                try {
                    exitCode = process.waitFor();
                } catch (InterruptedException ignored) {
                }
                state = "stopped";
                push(m("event", "stopped", "session_id", id, "exit_code", exitCode == null ? null : (long) exitCode));
            }, "standin-run-" + id);
            t.setDaemon(true);
            t.start();
            return;
        }
        EventRequestManager erm = vm.eventRequestManager();
        returns = new ReturnValues(vm);
        for (Bp bp : owner.allBreakpoints()) bind(bp);
        if (stopOnEntry) {
            ClassPrepareRequest r = erm.createClassPrepareRequest();
            r.addClassFilter(mainClass);
            r.putProperty("entry", Boolean.TRUE);
            r.enable();
        }
        if (stopOnException) {
            exceptionOnAll = erm.createExceptionRequest(null, false, true);
            exceptionOnAll.setSuspendPolicy(EventRequest.SUSPEND_ALL);
            exceptionOnAll.enable();
        }
        state = "running";
        // No vm.resume() here: the event loop resumes the VMStartEvent's suspension. Resuming
        // from this thread as well would race with the loop and could release a later
        // ClassPrepare suspension before its breakpoints are bound.
        Thread loop = new Thread(this::eventLoop, "standin-jdi-events-" + id);
        loop.setDaemon(true);
        loop.start();
    }

    /**
     * Ends the session as it began: an attached JVM is detached from (VirtualMachine.dispose: its
     * breakpoints go, it runs on), unless [terminate]; a launched one is killed.
     */
    void stop(boolean terminate) {
        if (state.equals("stopped")) return;
        if (attachedPid != null) {
            try {
                if (terminate) vm.exit(1); else vm.dispose();
            } catch (VMDisconnectedException ignored) {
            }
            return;
        }
        if (vm != null) {
            try {
                vm.exit(1);
            } catch (VMDisconnectedException ignored) {
            }
        } else {
            process.destroy();
        }
        try {
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException ignored) {
        }
        if (process.isAlive()) process.destroyForcibly();
    }

    // --------------------------------------------------------------------------------------------
    // Events

    private void eventLoop() {
        EventQueue q = vm.eventQueue();
        try {
            while (true) {
                EventSet set = q.remove();
                boolean pause = false;
                ThreadReference thread = null;
                String reason = null;
                String description = null;
                List<String> bpIds = new ArrayList<>();
                for (Event e : set) {
                    if (returns.process(e)) continue;
                    if (e instanceof VMDeathEvent || e instanceof VMDisconnectEvent) {
                        finish();
                        return;
                    } else if (e instanceof ClassPrepareEvent) {
                        onClassPrepare((ClassPrepareEvent) e);
                    } else if (e instanceof BreakpointEvent) {
                        BreakpointEvent be = (BreakpointEvent) e;
                        EventRequest r = be.request();
                        if (Boolean.TRUE.equals(r.getProperty("entry"))) {
                            vm.eventRequestManager().deleteEventRequest(r);
                            pause = true; thread = be.thread(); reason = "entry";
                        } else if (Boolean.TRUE.equals(r.getProperty("runTo"))) {
                            clearRunTo();
                            pause = true; thread = be.thread(); reason = "goto";
                        } else {
                            Bp bp = owner.breakpoint((String) r.getProperty("bp"));
                            if (bp != null && onBreakpointHit(bp, be.thread())) {
                                pause = true; thread = be.thread(); reason = "breakpoint";
                                bpIds.add(bp.id);
                            }
                        }
                    } else if (e instanceof WatchpointEvent) {
                        WatchpointEvent we = (WatchpointEvent) e;
                        Bp bp = owner.breakpoint((String) we.request().getProperty("bp"));
                        if (bp != null && onBreakpointHit(bp, we.thread())) {
                            pause = true; thread = we.thread(); reason = "breakpoint";
                            bpIds.add(bp.id);
                            description = describeWatchpoint(we);
                        }
                    } else if (e instanceof StepEvent) {
                        vm.eventRequestManager().deleteEventRequest(e.request());
                        pause = true; thread = ((StepEvent) e).thread(); reason = "step";
                    } else if (e instanceof ExceptionEvent) {
                        ExceptionEvent ee = (ExceptionEvent) e;
                        Bp bp = owner.breakpoint((String) ee.request().getProperty("bp"));
                        if (bp != null && !bp.enabled) continue;
                        if (bp != null) bp.hits++;
                        pause = true; thread = ee.thread(); reason = "exception";
                        description = describeException(ee.exception(), ee.catchLocation() == null);
                        if (bp != null) bpIds.add(bp.id);
                    }
                }
                if (pause && set.suspendPolicy() != EventRequest.SUSPEND_NONE) {
                    returns.disable();
                    pausedThread = thread;
                    state = "paused";
                    selectedFrame = null;
                    push(m("event", "paused", "session_id", id, "thread_id", tid(thread), "reason", reason,
                            "breakpoint_ids", bpIds, "description", description));
                } else {
                    set.resume();
                }
            }
        } catch (InterruptedException | VMDisconnectedException e) {
            finish();
        }
    }

    private void finish() {
        if (state.equals("stopped")) return;
        if (process != null) {
            try {
                process.waitFor(5, TimeUnit.SECONDS);
                if (!process.isAlive()) exitCode = process.exitValue();
            } catch (InterruptedException ignored) {
            }
        }
        state = "stopped";
        values.clear();
        for (Bp bp : owner.allBreakpoints()) bp.requests.remove(id);
        push(m("event", "stopped", "session_id", id, "exit_code", exitCode == null ? null : (long) exitCode));
    }

    private String describeException(ObjectReference ex, boolean uncaught) {
        String msg = null;
        Field f = ex.referenceType().fieldByName("detailMessage");
        if (f != null) {
            Value v = ex.getValue(f);
            if (v instanceof StringReference) msg = ((StringReference) v).value();
        }
        return ex.referenceType().name() + (msg != null ? ": " + msg : "") + (uncaught ? " (uncaught)" : "");
    }

    /** Which field, and the old and new value of a write (JDI has both before the write happens). */
    private static String describeWatchpoint(WatchpointEvent e) {
        String field = e.field().declaringType().name() + "." + e.field().name();
        if (e instanceof ModificationWatchpointEvent) {
            return "field " + field + " written: " + Render.value(e.valueCurrent()) + " -> "
                    + Render.value(((ModificationWatchpointEvent) e).valueToBe());
        }
        return "field " + field + " read: " + Render.value(e.valueCurrent());
    }

    /** The field an expression names in a paused frame (see JdiCallbacks.addDataBreakpoint). */
    Field resolveField(String frameHandle, String expression) {
        requirePaused("set a watchpoint");
        if (!expression.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
            throw failed("watch '" + expression + "' must name a field: name, obj.name or Class.name");
        }
        StackFrame f = frame(frameHandle);
        int dot = expression.lastIndexOf('.');
        String name = expression.substring(dot + 1);
        ReferenceType type;
        if (dot < 0) {
            try {
                if (f.visibleVariableByName(name) != null) {
                    throw failed("'" + name + "' is a local variable: the JVM watches fields only. Instead: a conditional breakpoint on the lines that assign it (condition e.g. '" + name + " != <old value>')");
                }
            } catch (AbsentInformationException ignored) {
            }
            type = f.location().declaringType();
        } else {
            String qualifier = expression.substring(0, dot);
            int index = Integer.parseInt(frameHandle.substring(frameHandle.lastIndexOf(':') + 1));
            type = null;
            try {
                Value v = new Evaluator(this, f.thread(), index).eval(qualifier);
                if (v instanceof ObjectReference) type = ((ObjectReference) v).referenceType();
                else if (v == null) throw failed("'" + qualifier + "' is null: nothing to watch a field of");
                else throw failed("'" + qualifier + "' is a " + v.type().name() + ", which has no fields");
            } catch (Evaluator.EvalError notAValue) {
                // Class.staticField: the qualifier names a loaded class.
                for (ReferenceType t : vm.allClasses()) {
                    if (t.name().equals(qualifier) || t.name().endsWith("." + qualifier)) { type = t; break; }
                }
                if (type == null) throw notFound("'" + qualifier + "' is neither a value nor a loaded class: " + notAValue.getMessage());
            }
        }
        Field field = type.fieldByName(name);
        if (field == null) throw notFound("no field '" + name + "' in " + type.name());
        return field;
    }

    private void onClassPrepare(ClassPrepareEvent e) {
        ReferenceType type = e.referenceType();
        if (Boolean.TRUE.equals(e.request().getProperty("entry"))) {
            vm.eventRequestManager().deleteEventRequest(e.request());
            Method main = type.methodsByName("main").stream().filter(Method::isStatic).findFirst().orElse(null);
            if (main != null && main.location() != null) {
                BreakpointRequest r = vm.eventRequestManager().createBreakpointRequest(main.location());
                r.putProperty("entry", Boolean.TRUE);
                r.setSuspendPolicy(EventRequest.SUSPEND_ALL);
                r.enable();
            }
            return;
        }
        Bp bp = owner.breakpoint((String) e.request().getProperty("bp"));
        if (bp == null) return;
        if (bp.kind.equals("line")) bindLine(bp, type, true);
        else if (bp.kind.equals("data")) bindData(bp, type);
        else bindException(bp, type);
    }

    /**
     * Decides whether a breakpoint hit pauses: condition, hit count, log message (tracepoint) and
     * temporary removal, as IntelliJ's breakpoint properties do.
     */
    private boolean onBreakpointHit(Bp bp, ThreadReference thread) {
        if (!bp.enabled) return false;
        try {
            if (bp.condition != null) {
                Value v = new Evaluator(this, thread, 0).eval(bp.condition);
                if (!(v instanceof BooleanValue) || !((BooleanValue) v).value()) return false;
            }
        } catch (Exception ex) {
            push(m("event", "output", "session_id", id, "category", "console",
                    "text", "breakpoint " + bp.id + " condition failed: " + ex.getMessage() + "\n"));
        }
        bp.hits++;
        if (bp.hitCondition != null) {
            try {
                if (bp.hits != Long.parseLong(bp.hitCondition.trim())) return false;
            } catch (NumberFormatException ignored) {
            }
        }
        if (bp.logMessage != null) {
            push(m("event", "output", "session_id", id, "category", "tracepoint",
                    "text", interpolate(bp.logMessage, thread) + "\n"));
        }
        if (bp.temporary) {
            owner.forget(bp);
            for (Session s : owner.allSessions()) s.unbind(bp);
            push(m("event", "breakpoint_removed", "id", bp.id));
        }
        // A tracepoint (log message) does not stop unless it also asks to suspend threads.
        return bp.logMessage == null && !bp.suspendPolicy.equals("none");
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([^}]+)}");

    private String interpolate(String template, ThreadReference thread) {
        Matcher mm = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (mm.find()) {
            String rendered;
            try {
                rendered = Render.plain(new Evaluator(this, thread, 0).eval(mm.group(1)));
            } catch (Exception ex) {
                rendered = "<" + ex.getMessage() + ">";
            }
            mm.appendReplacement(sb, Matcher.quoteReplacement(rendered));
        }
        mm.appendTail(sb);
        return sb.toString();
    }

    // --------------------------------------------------------------------------------------------
    // Breakpoint binding

    void bind(Bp bp) {
        if (vm == null || state.equals("stopped")) return;
        if (bp.kind.equals("data")) {
            for (ReferenceType t : vm.classesByName(bp.fieldClass)) bindData(bp, t);
            bindOnPrepare(bp, bp.fieldClass);
        } else if (bp.kind.equals("line")) {
            boolean any = false;
            for (ReferenceType t : vm.allClasses()) {
                if (matches(t.name(), bp.className)) any |= bindLine(bp, t, false);
            }
            for (String filter : List.of(bp.className, bp.className + "$*")) {
                bindOnPrepare(bp, filter);
            }
            if (!any && !bp.verified) {
                bp.message = "class " + bp.className + " not loaded yet";
            }
        } else {
            if (bp.exception.equals("*") || bp.exception.equals("java.lang.Throwable")) {
                bindException(bp, null);
            } else {
                for (ReferenceType t : vm.classesByName(bp.exception)) bindException(bp, t);
                bindOnPrepare(bp, bp.exception);
                if (!bp.verified) {
                    bp.verified = true; // JDI accepts the request; it fires once the class exists
                }
            }
        }
    }

    /** Binds `bp` again whenever a class matching `filter` is loaded (the ClassPrepareEvent). */
    private void bindOnPrepare(Bp bp, String filter) {
        ClassPrepareRequest r = vm.eventRequestManager().createClassPrepareRequest();
        r.addClassFilter(filter);
        r.putProperty("bp", bp.id);
        r.enable();
        track(bp, r);
    }

    private static boolean matches(String typeName, String className) {
        return typeName.equals(className) || typeName.startsWith(className + "$");
    }

    private void track(Bp bp, EventRequest r) {
        bp.requests.computeIfAbsent(id, k -> Collections.synchronizedList(new ArrayList<>())).add(r);
    }

    /** Binds at the requested line or the next line with code (the debugger "moves" it). */
    private boolean bindLine(Bp bp, ReferenceType type, boolean announce) {
        try {
            for (int line = bp.requestedLine; line < bp.requestedLine + 10; line++) {
                List<Location> locs = type.locationsOfLine(line);
                if (locs.isEmpty()) continue;
                BreakpointRequest r = vm.eventRequestManager().createBreakpointRequest(locs.get(0));
                r.putProperty("bp", bp.id);
                r.setSuspendPolicy(bp.suspendJdi() == EventRequest.SUSPEND_NONE && bp.logMessage != null
                        ? EventRequest.SUSPEND_EVENT_THREAD // tracepoints need a suspended thread to evaluate
                        : bp.suspendJdi() == EventRequest.SUSPEND_NONE ? EventRequest.SUSPEND_NONE : bp.suspendJdi());
                if (bp.enabled) r.enable();
                track(bp, r);
                boolean changed = !bp.verified || !Integer.valueOf(line).equals(bp.line);
                bp.verified = true;
                bp.line = line;
                bp.message = line != bp.requestedLine ? "moved from line " + bp.requestedLine + " to " + line + " (no code there)" : null;
                if (announce && changed) push(m("event", "breakpoint_changed", "breakpoint", bp.info()));
                return true;
            }
        } catch (AbsentInformationException e) {
            bp.message = "no line information in " + type.name() + " (compile with -g)";
        }
        return false;
    }

    private void bindException(Bp bp, ReferenceType type) {
        ExceptionRequest r = vm.eventRequestManager().createExceptionRequest(type, bp.caught, bp.uncaught);
        r.putProperty("bp", bp.id);
        r.setSuspendPolicy(bp.suspendJdi());
        if (bp.enabled) r.enable();
        track(bp, r);
        bp.verified = true;
    }

    /**
     * Field watchpoints are project breakpoints in the IDE (an XLineBreakpoint at the field's
     * declaration), so like FieldBreakpoint they bind in every session, when the class loads.
     */
    private void bindData(Bp bp, ReferenceType t) {
        EventRequestManager erm = vm.eventRequestManager();
        {
            Field field = t.fieldByName(bp.fieldName);
            if (field == null) return;
            List<WatchpointRequest> rs = new ArrayList<>();
            if (!bp.access.equals("read")) rs.add(erm.createModificationWatchpointRequest(field));
            if (!bp.access.equals("write")) rs.add(erm.createAccessWatchpointRequest(field));
            for (WatchpointRequest r : rs) {
                r.putProperty("bp", bp.id);
                r.setSuspendPolicy(bp.suspendJdi() == EventRequest.SUSPEND_NONE ? EventRequest.SUSPEND_NONE : bp.suspendJdi());
                if (bp.enabled) r.enable();
                track(bp, r);
            }
            bp.verified = true;
        }
    }

    void unbind(Bp bp) {
        List<EventRequest> rs = bp.requests.remove(id);
        if (rs == null || vm == null) return;
        try {
            vm.eventRequestManager().deleteEventRequests(new ArrayList<>(rs));
        } catch (VMDisconnectedException ignored) {
        }
    }

    // --------------------------------------------------------------------------------------------
    // Execution control

    @SuppressWarnings("unchecked")
    void control(String threadId, Map<String, Object> op) {
        if (vm == null) throw unsupported("session " + id + " runs without the debugger (mode run)");
        if (state.equals("stopped")) throw invalidState("session " + id + " has stopped");
        String kind = (String) op.get("op");
        switch (kind) {
            case "resume":
                requirePaused(kind);
                returns.clear();
                resume();
                return;
            case "pause":
                if (state.equals("paused")) throw invalidState("session " + id + " is already paused");
                vm.suspend();
                ThreadReference t = threadId != null ? thread(threadId) : mainThread();
                pausedThread = t;
                state = "paused";
                push(m("event", "paused", "session_id", id, "thread_id", tid(t), "reason", "pause",
                        "breakpoint_ids", List.of()));
                return;
            case "step_over":
            case "step_into":
            case "step_out": {
                requirePaused(kind);
                ThreadReference th = threadId != null ? thread(threadId) : pausedThread;
                EventRequestManager erm = vm.eventRequestManager();
                for (StepRequest old : new ArrayList<>(erm.stepRequests())) {
                    if (old.thread().equals(th)) erm.deleteEventRequest(old);
                }
                int depth = kind.equals("step_over") ? StepRequest.STEP_OVER
                        : kind.equals("step_into") ? StepRequest.STEP_INTO : StepRequest.STEP_OUT;
                StepRequest r = erm.createStepRequest(th, StepRequest.STEP_LINE, depth);
                if (!(kind.equals("step_into") && bool(op, "force", false))) {
                    for (String p : List.of("java.*", "javax.*", "sun.*", "jdk.*", "com.sun.*")) r.addClassExclusionFilter(p);
                }
                r.addCountFilter(1);
                r.setSuspendPolicy(EventRequest.SUSPEND_ALL);
                r.enable();
                returns.enable(th);
                resume();
                return;
            }
            case "run_to": {
                requirePaused(kind);
                String file = (String) op.get("file");
                int line = ((Number) op.get("line")).intValue();
                String cls;
                try {
                    cls = owner.className(owner.sourceFile(file));
                } catch (java.io.IOException e) {
                    throw notFound("no such file " + file);
                }
                Location target = null;
                for (ReferenceType type : vm.allClasses()) {
                    if (!matches(type.name(), cls)) continue;
                    try {
                        List<Location> locs = type.locationsOfLine(line);
                        if (!locs.isEmpty()) target = locs.get(0);
                    } catch (AbsentInformationException ignored) {
                    }
                    if (target != null) break;
                }
                if (target == null) throw failed("no code at " + file + ":" + line + " in a loaded class");
                BreakpointRequest r = vm.eventRequestManager().createBreakpointRequest(target);
                r.putProperty("runTo", Boolean.TRUE);
                r.setSuspendPolicy(EventRequest.SUSPEND_ALL);
                r.enable();
                synchronized (runTo) {
                    runTo.add(r);
                }
                if (bool(op, "ignore_breakpoints", false)) {
                    for (Bp bp : owner.allBreakpoints()) {
                        List<EventRequest> rs = bp.requests.get(id);
                        if (rs != null) rs.forEach(EventRequest::disable);
                    }
                    r.putProperty("restore", Boolean.TRUE);
                }
                resume();
                return;
            }
            default:
                throw unsupported("control op " + kind);
        }
    }

    private void clearRunTo() {
        boolean restore = false;
        synchronized (runTo) {
            for (EventRequest r : runTo) {
                restore |= Boolean.TRUE.equals(r.getProperty("restore"));
                vm.eventRequestManager().deleteEventRequest(r);
            }
            runTo.clear();
        }
        if (restore) {
            for (Bp bp : owner.allBreakpoints()) {
                List<EventRequest> rs = bp.requests.get(id);
                if (rs != null && bp.enabled) rs.forEach(EventRequest::enable);
            }
        }
    }

    private void requirePaused(String what) {
        if (!state.equals("paused")) throw invalidState("cannot " + what + ": session " + id + " is " + state);
    }

    private void resume() {
        values.clear();
        pausedThread = null;
        selectedFrame = null;
        state = "running";
        push(m("event", "resumed", "session_id", id));
        vm.resume();
    }

    /**
     * IntelliJ's Force Return (ForceEarlyReturnAction → ThreadReferenceProxyImpl.forceEarlyReturn
     * on the debugger manager thread): the top frame's method returns the value when the thread
     * resumes. The value is parsed for the method's return type like set_value's.
     */
    void forceReturn(String threadId, String frameHandle, String text) {
        requirePaused("force a return");
        StackFrame f = frame(frameHandle);
        if (!frameHandle.endsWith(":0")) throw failed("force_return pops the top frame only; frame " + frameHandle + " is not on top");
        ThreadReference t = thread(threadId);
        Method method = f.location().method();
        Value v;
        try {
            v = method.returnTypeName().equals("void") ? vm.mirrorOfVoid() : Render.parse(vm, method.returnType(), text);
        } catch (ClassNotLoadedException e) {
            throw failed("the return type of " + method.name() + " is not loaded");
        } catch (IllegalArgumentException e) {
            throw failed("value: " + e.getMessage());
        }
        try {
            t.forceEarlyReturn(v);
        } catch (InvalidTypeException | ClassNotLoadedException e) {
            throw failed("value '" + text + "' does not match " + method.returnTypeName());
        } catch (IncompatibleThreadStateException e) {
            throw invalidState("thread " + threadId + " is not suspended");
        } catch (UnsupportedOperationException e) {
            throw unsupported("this JVM cannot force early returns");
        }
    }

    private ThreadReference mainThread() {
        for (ThreadReference t : vm.allThreads()) if (t.name().equals("main")) return t;
        return vm.allThreads().get(0);
    }

    static String tid(ThreadReference t) {
        return t == null ? "" : Long.toString(t.uniqueID());
    }

    ThreadReference thread(String threadId) {
        if (vm == null) throw unsupported("session " + id + " runs without the debugger");
        for (ThreadReference t : vm.allThreads()) if (tid(t).equals(threadId)) return t;
        throw notFound("no thread " + threadId + " in session " + id);
    }

    // --------------------------------------------------------------------------------------------
    // Threads, frames

    List<Object> threads() {
        if (vm == null) throw unsupported("session " + id + " runs without the debugger");
        if (state.equals("stopped")) throw invalidState("session " + id + " has stopped");
        List<Object> out = new ArrayList<>();
        for (ThreadReference t : vm.allThreads()) {
            String st;
            if (t.isSuspended()) st = "paused";
            else {
                switch (t.status()) {
                    case ThreadReference.THREAD_STATUS_WAIT: st = "waiting"; break;
                    case ThreadReference.THREAD_STATUS_SLEEPING: st = "sleeping"; break;
                    case ThreadReference.THREAD_STATUS_MONITOR: st = "blocked"; break;
                    case ThreadReference.THREAD_STATUS_ZOMBIE: st = "terminated"; break;
                    default: st = "running";
                }
            }
            String group = null;
            try {
                group = t.threadGroup() == null ? null : t.threadGroup().name();
            } catch (ObjectCollectedException ignored) {
            }
            out.add(m("id", tid(t), "name", t.name(), "state", st, "group", group));
        }
        return out;
    }

    List<Object> frameList(ThreadReference t, int offset, int limit) throws IncompatibleThreadStateException {
        int total = t.frameCount();
        List<Object> frames = new ArrayList<>();
        if (offset < total) {
            int n = Math.min(limit, total - offset);
            List<StackFrame> fs = t.frames(offset, n);
            for (int i = 0; i < fs.size(); i++) {
                Location loc = fs.get(i).location();
                String file = owner.pathOf(loc);
                frames.add(m("index", (long) (offset + i), "handle", tid(t) + ":" + (offset + i), "file", file,
                        "line", loc.lineNumber() > 0 ? (long) loc.lineNumber() : null,
                        "class_name", loc.declaringType().name(), "method_name", loc.method().name(),
                        "is_library", file == null));
            }
        }
        return frames;
    }

    Object frames(String threadId, int offset, int limit) {
        ThreadReference t = thread(threadId);
        if (!t.isSuspended()) throw invalidState("thread " + threadId + " is running; pause first");
        try {
            return m("frames", frameList(t, offset, limit), "total", (long) t.frameCount());
        } catch (IncompatibleThreadStateException e) {
            throw invalidState("thread " + threadId + " is not suspended");
        }
    }

    /** Frame handle "threadId:index" → a live StackFrame (re-fetched: JDI frames die on resume/invoke). */
    StackFrame frame(String handle) {
        if (vm == null) throw unsupported("session " + id + " runs without the debugger");
        int colon = handle.lastIndexOf(':');
        if (colon < 0) throw notFound("bad frame handle " + handle);
        ThreadReference t = thread(handle.substring(0, colon));
        try {
            int index = Integer.parseInt(handle.substring(colon + 1));
            if (index >= t.frameCount()) throw notFound("frame " + handle + " is gone");
            return t.frame(index);
        } catch (NumberFormatException e) {
            throw notFound("bad frame handle " + handle);
        } catch (IncompatibleThreadStateException e) {
            throw invalidState("thread of frame " + handle + " is running");
        }
    }

    // --------------------------------------------------------------------------------------------
    // Values

    /** A value plus where it lives, so it can be set. */
    static final class Val {
        final Value value;
        final String frame; // local variables: frame handle
        final String local; // local variable name
        final ObjectReference owner; // fields
        final Field field;
        final ArrayReference array; // array elements
        final int index;

        Val(Value value, String frame, String local, ObjectReference owner, Field field, ArrayReference array, int index) {
            this.value = value;
            this.frame = frame;
            this.local = local;
            this.owner = owner;
            this.field = field;
            this.array = array;
            this.index = index;
        }
    }

    private String keep(Val v) {
        String h = "v" + valueSeq.incrementAndGet();
        values.put(h, v);
        return h;
    }

    Val val(String handle) {
        Val v = values.get(handle);
        if (v == null) throw notFound("value handle " + handle + " is unknown or stale (values are valid until the next resume)");
        return v;
    }

    Map<String, Object> node(String name, Val v, String scope, String evaluateName) {
        Value value = v.value;
        Map<String, Object> n = m("name", name, "value", Render.value(value), "type", Render.type(value, v));
        long count = Render.childCount(value);
        n.put("has_children", count > 0);
        if (count > 0 || v.frame != null || v.field != null || v.array != null) {
            String h = keep(v);
            if (count > 0) n.put("children_handle", h);
            boolean settable = (v.frame != null || (v.field != null && !v.field.isFinal()) || v.array != null);
            if (settable) n.put("set_handle", h);
        }
        if (count > 0) n.put("child_count", count);
        n.put("evaluate_name", evaluateName);
        n.put("scope", scope);
        return n;
    }

    List<Object> frameVariables(String frameHandle) {
        requirePaused("read variables");
        StackFrame f = frame(frameHandle);
        List<Object> out = new ArrayList<>();
        ObjectReference self = f.thisObject();
        if (self != null) out.add(node("this", new Val(self, null, null, null, null, null, 0), "this", "this"));
        // The value the last step's method returned, on the stepping thread's top frame only.
        String returned = returns.name();
        if (returned != null && f.thread().equals(pausedThread) && frameHandle.endsWith(":0")) {
            out.add(node(returned, new Val(returns.value(), null, null, null, null, null, 0), "local", null));
        }
        try {
            Set<String> args = new HashSet<>();
            for (LocalVariable a : f.location().method().arguments()) args.add(a.name());
            List<LocalVariable> vars = f.visibleVariables();
            Map<LocalVariable, Value> vals = f.getValues(vars);
            for (LocalVariable lv : vars) {
                Val v = new Val(vals.get(lv), frameHandle, lv.name(), null, null, null, 0);
                out.add(node(lv.name(), v, args.contains(lv.name()) ? "argument" : "local", lv.name()));
            }
        } catch (AbsentInformationException e) {
            throw unsupported("no local variable information in " + f.location().declaringType().name() + " (compile with -g)");
        }
        return out;
    }

    Object children(String handle, int offset, int limit) {
        requirePaused("expand values");
        Val parent = val(handle);
        List<Object> out = new ArrayList<>();
        long total;
        if (parent.value instanceof ArrayReference) {
            ArrayReference arr = (ArrayReference) parent.value;
            total = arr.length();
            if (offset < total) {
                int n = (int) Math.min(limit, total - offset);
                List<Value> vs = arr.getValues(offset, n);
                for (int i = 0; i < n; i++) {
                    out.add(node("[" + (offset + i) + "]", new Val(vs.get(i), null, null, null, null, arr, offset + i), "local", null));
                }
            }
        } else if (parent.value instanceof ObjectReference) {
            ObjectReference obj = (ObjectReference) parent.value;
            List<Field> fields = new ArrayList<>();
            for (Field fl : obj.referenceType().allFields()) if (!fl.isStatic()) fields.add(fl);
            total = fields.size();
            int end = (int) Math.min(total, (long) offset + limit);
            for (int i = offset; i < end; i++) {
                Field fl = fields.get(i);
                out.add(node(fl.name(), new Val(obj.getValue(fl), null, null, obj, fl, null, 0), "local", null));
            }
        } else {
            throw invalidState("value " + handle + " has no children");
        }
        return m("children", out, "total", total);
    }

    Object setValue(String handle, String text) {
        requirePaused("set values");
        Val target = val(handle);
        try {
            Type type;
            if (target.frame != null) {
                StackFrame f = frame(target.frame);
                LocalVariable lv = f.visibleVariableByName(target.local);
                type = lv.type();
                Value nv = Render.parse(vm, type, text);
                f.setValue(lv, nv);
                Val updated = new Val(nv, target.frame, target.local, null, null, null, 0);
                return node(target.local, updated, "local", target.local);
            } else if (target.field != null) {
                type = target.field.type();
                Value nv = Render.parse(vm, type, text);
                target.owner.setValue(target.field, nv);
                return node(target.field.name(), new Val(nv, null, null, target.owner, target.field, null, 0), "local", null);
            } else if (target.array != null) {
                type = ((ArrayType) target.array.referenceType()).componentType();
                Value nv = Render.parse(vm, type, text);
                target.array.setValue(target.index, nv);
                return node("[" + target.index + "]", new Val(nv, null, null, null, null, target.array, target.index), "local", null);
            }
        } catch (AbsentInformationException | ClassNotLoadedException e) {
            throw failed("cannot set value: " + e);
        } catch (InvalidTypeException e) {
            throw failed("type mismatch: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw failed(e.getMessage());
        }
        throw unsupported("value " + handle + " cannot be modified");
    }

    Object evaluate(Map<String, Object> req) {
        requirePaused("evaluate");
        String frameHandle = JdiCallbacks.str(req, "frame");
        String expr = JdiCallbacks.str(req, "expression");
        if ("code_fragment".equals(req.get("context"))) throw unsupported("code fragments are not supported by the JDI stand-in");
        StackFrame f = frame(frameHandle);
        int colon = frameHandle.lastIndexOf(':');
        int index = Integer.parseInt(frameHandle.substring(colon + 1));
        Value v;
        try {
            v = new Evaluator(this, f.thread(), index).eval(expr);
        } catch (Evaluator.EvalError e) {
            throw failed(e.getMessage());
        }
        return node(expr, new Val(v, null, null, null, null, null, 0), "local", expr);
    }
}
