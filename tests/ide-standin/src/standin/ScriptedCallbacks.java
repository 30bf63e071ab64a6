package standin;

import com.debuggermcp.bridge.DebuggerCallbacks;
import com.debuggermcp.bridge.NativeBridge;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BiFunction;

/**
 * A callback table whose answers a test scripts per op: answer synchronously inside {@code call}
 * (the fastest legal implementation, used by the benchmark), answer from another thread, throw
 * from {@code call}, never answer, or answer with an error JSON.
 */
public final class ScriptedCallbacks implements DebuggerCallbacks {
    public enum Mode { SYNC, ASYNC, THROW, HANG, ERROR, GARBAGE }

    public volatile int version = 1;
    public volatile Mode defaultMode = Mode.SYNC;
    public final Map<String, Mode> modes = new ConcurrentHashMap<>();
    /** Result JSON per op; default echoes the args as {"op":..,"args":..}. */
    public volatile BiFunction<String, String, String> answer = (op, args) -> "{\"op\":\"" + op + "\",\"args\":" + args + "}";
    public final Map<String, String> fixed = new ConcurrentHashMap<>();
    private final ExecutorService async = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "scripted-callbacks");
        t.setDaemon(true);
        return t;
    });

    @Override
    public int tableVersion() {
        return version;
    }

    @Override
    public void call(long requestId, String op, String argsJson) {
        Mode mode = modes.getOrDefault(op, defaultMode);
        String result = fixed.containsKey(op) ? fixed.get(op) : answer.apply(op, argsJson);
        switch (mode) {
            case SYNC:
                NativeBridge.complete(requestId, true, result);
                break;
            case ASYNC:
                async.execute(() -> NativeBridge.complete(requestId, true, result));
                break;
            case THROW:
                throw new IllegalStateException("scripted failure in " + op);
            case HANG:
                break;
            case ERROR:
                NativeBridge.complete(requestId, false, "{\"kind\":\"not_found\",\"message\":\"scripted: nothing named x\"}");
                break;
            case GARBAGE:
                NativeBridge.complete(requestId, true, "{not json");
                break;
        }
    }

    /** BackendInfo JSON for `handshake`. */
    public static final String HANDSHAKE = "{\"name\":\"scripted\",\"table_version\":1}";
}
