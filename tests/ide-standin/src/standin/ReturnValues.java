package standin;

import com.sun.jdi.Method;
import com.sun.jdi.ThreadReference;
import com.sun.jdi.Value;
import com.sun.jdi.VirtualMachine;
import com.sun.jdi.event.Event;
import com.sun.jdi.event.MethodEntryEvent;
import com.sun.jdi.event.MethodExitEvent;
import com.sun.jdi.request.EventRequest;
import com.sun.jdi.request.EventRequestManager;
import com.sun.jdi.request.MethodEntryRequest;
import com.sun.jdi.request.MethodExitRequest;
import java.util.stream.Collectors;

/**
 * IntelliJ's "Show Method Return Values" (DebuggerSettings.WATCH_RETURN_VALUES), done as
 * MethodReturnValueWatcher does it (java/debugger/impl/src/com/intellij/debugger/engine/requests/
 * MethodReturnValueWatcher.java, 2024 version, index file id 8018620830): while a step runs, a
 * MethodEntryRequest and a MethodExitRequest on the stepping thread (SUSPEND_EVENT_THREAD); the
 * first method entered narrows the exit request to its class until that method exits; the last
 * non-void method that exited and its value are kept. After the step, the top frame shows that
 * value first, named as MethodReturnValueDescriptorImpl.getName() names it:
 * `<short class name>.<method>(<short argument types>)`, e.g. {@code Account.fib(int)}.
 */
final class ReturnValues {
    private static final String KEY = "WATCHER_REQUEST_KEY";
    private final VirtualMachine vm;
    private ThreadReference thread;
    private MethodEntryRequest entry;
    private MethodExitRequest exit;
    private Method entryMethod;
    private volatile Method lastMethod;
    private volatile Value lastValue;

    ReturnValues(VirtualMachine vm) {
        this.vm = vm;
    }

    /** Starts tracking for a step of [t] (DebugProcessImpl enables the watcher for each step command). */
    synchronized void enable(ThreadReference t) {
        disable();
        clear();
        thread = t;
        entry = prepare(erm().createMethodEntryRequest());
        entry.enable();
        exit = prepare(erm().createMethodExitRequest());
        exit.enable();
    }

    /** Stops tracking (at the pause); the last value stays until the next resume. */
    synchronized void disable() {
        if (entry != null) erm().deleteEventRequest(entry);
        if (exit != null) erm().deleteEventRequest(exit);
        entry = null;
        exit = null;
        entryMethod = null;
    }

    void clear() {
        lastMethod = null;
        lastValue = null;
    }

    /** True when [e] is the watcher's (the event set is then resumed by the caller). */
    synchronized boolean process(Event e) {
        if (e.request() == null || e.request().getProperty(KEY) == null) return false;
        if (e instanceof MethodEntryEvent && entry != null && entry.isEnabled() && entryMethod == null) {
            MethodEntryEvent me = (MethodEntryEvent) e;
            erm().deleteEventRequest(exit);
            exit = prepare(erm().createMethodExitRequest());
            exit.addClassFilter(me.location().declaringType());
            entryMethod = me.method();
            exit.enable();
            entry.disable();
        } else if (e instanceof MethodExitEvent) {
            MethodExitEvent me = (MethodExitEvent) e;
            if (entryMethod != null) {
                if (!entryMethod.equals(me.method())) return true;
                entry.enable();
                entryMethod = null;
                erm().deleteEventRequest(exit);
                exit = prepare(erm().createMethodExitRequest());
                exit.enable();
            }
            // Methods with non-void return types only.
            if (!me.method().returnTypeName().equals("void")) {
                lastMethod = me.method();
                lastValue = me.returnValue();
            }
        }
        return true;
    }

    /** The node's name, or null when no value is kept. */
    String name() {
        Method m = lastMethod;
        if (m == null) return null;
        String cls = m.declaringType().name();
        return cls.substring(cls.lastIndexOf('.') + 1) + "." + m.name() + "("
                + m.argumentTypeNames().stream().map(t -> t.substring(t.lastIndexOf('.') + 1)).collect(Collectors.joining(", ")) + ")";
    }

    Value value() {
        return lastValue;
    }

    private <T extends EventRequest> T prepare(T r) {
        r.setSuspendPolicy(EventRequest.SUSPEND_EVENT_THREAD);
        if (thread != null) {
            if (r instanceof MethodEntryRequest) ((MethodEntryRequest) r).addThreadFilter(thread);
            else if (r instanceof MethodExitRequest) ((MethodExitRequest) r).addThreadFilter(thread);
        }
        r.putProperty(KEY, Boolean.TRUE);
        return r;
    }

    private EventRequestManager erm() {
        return vm.eventRequestManager();
    }
}
