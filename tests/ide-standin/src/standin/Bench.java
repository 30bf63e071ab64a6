package standin;

import com.debuggermcp.bridge.NativeBridge;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * JNI round-trip benchmark: one NativeBridge.backendCall = Java → Rust (native call) → Rust
 * calls DebuggerCallbacks.call on the same thread → the callback answers synchronously with
 * NativeBridge.complete (Java → Rust) → Rust parses the typed answer → returns to Java.
 * That is 3 JNI crossings (2 Java→Rust, 1 Rust→Java). Prints per-call percentiles.
 * Usage: Bench <lib.so> [iterations]
 */
public final class Bench {
    public static void main(String[] args) throws Exception {
        System.load(Path.of(args[0]).toAbsolutePath().toString());
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        ScriptedCallbacks cb = new ScriptedCallbacks();
        cb.fixed.put("handshake", ScriptedCallbacks.HANDSHAKE);
        NativeBridge.init(Files.createTempFile("bench", ".toml").toString(), cb);
        for (int i = 0; i < 50_000; i++) NativeBridge.backendCall("handshake", "{}");
        long[] samples = new long[n];
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long s = System.nanoTime();
            NativeBridge.backendCall("handshake", "{}");
            samples[i] = System.nanoTime() - s;
        }
        long total = System.nanoTime() - t0;
        Arrays.sort(samples);
        // Reference points on the same machine and moment: a bare Java → Rust call that
        // copies one String argument (setServerUrl), and complete() for an unknown id.
        long r0 = System.nanoTime();
        for (int i = 0; i < n; i++) NativeBridge.setServerUrl("http://127.0.0.1:1/debugger-mcp");
        double bare = (System.nanoTime() - r0) / (double) n;
        r0 = System.nanoTime();
        for (int i = 0; i < n; i++) NativeBridge.complete(-1, true, "null");
        double complete = (System.nanoTime() - r0) / (double) n;
        System.out.printf("reference: bare native call with a String arg %.0f ns; complete(unknown id) %.0f ns%n", bare, complete);
        System.out.printf("jni round trip (backendCall handshake, sync callback): n=%d mean=%.0f ns p50=%d ns p90=%d ns p99=%d ns%n",
                n, (double) total / n, samples[n / 2], samples[n * 9 / 10], samples[n * 99 / 100]);
        NativeBridge.shutdown();
    }
}
