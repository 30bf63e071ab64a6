package standin;

import com.debuggermcp.bridge.NativeBridge;
import java.nio.file.Files;
import java.nio.file.Path;

/** Loads the cdylib once per test JVM (path from -Ddebuggermcp.lib) and inits bridges. */
final class Lib {
    private static boolean loaded;

    static synchronized void load() {
        if (loaded) return;
        String lib = System.getProperty("debuggermcp.lib");
        if (lib == null) throw new IllegalStateException("set -Ddebuggermcp.lib=/path/to/libdebugger_mcp_jni.so");
        System.load(Path.of(lib).toAbsolutePath().toString());
        loaded = true;
    }

    /** Inits the bridge with [callbacks] and a settings file holding [toml]. */
    static String init(com.debuggermcp.bridge.DebuggerCallbacks callbacks, String toml) throws Exception {
        load();
        Path settings = Files.createTempFile("bridge-test", ".toml");
        Files.writeString(settings, toml);
        return NativeBridge.init(settings.toString(), callbacks);
    }
}
