package com.debuggermcp

import com.debuggermcp.adapter.XDebuggerAdapter
import com.debuggermcp.bridge.LogSink
import com.debuggermcp.bridge.NativeBridge
import com.debuggermcp.json.Json
import com.debuggermcp.nativelib.NativeLibraryLocator
import com.intellij.openapi.Disposable
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.PathManager
import com.intellij.openapi.components.Service
import com.intellij.openapi.diagnostic.Logger
import kotlinx.coroutines.CoroutineScope
import org.jetbrains.ide.BuiltInServerManager
import java.nio.file.Files
import java.nio.file.Paths

/**
 * Owns the Rust engine for the whole IDE: loads the native library from the plugin directory,
 * starts it with the settings file and the XDebugger adapter, and shuts it down with the IDE.
 * One engine serves every open project (agents name the project per call).
 *
 * The [scope] is injected by the platform (light service with a coroutine scope), so every
 * coroutine the adapter starts is cancelled when the plugin is unloaded.
 */
@Service(Service.Level.APP)
class DebuggerMcpService(private val scope: CoroutineScope) : Disposable {
    sealed class State {
        object NotStarted : State()
        class Ready(val handshake: String) : State()
        class Failed(val message: String) : State()
    }

    @Volatile
    var state: State = State.NotStarted
        private set

    val adapter: XDebuggerAdapter by lazy { XDebuggerAdapter(scope) }

    val isReady: Boolean get() = state is State.Ready

    /**
     * Starts the engine once; later calls return at once. Loading the library and the engine's
     * init are quick (the engine runs on its own threads), so this may run on any thread.
     */
    @Synchronized
    fun ensureStarted(): Boolean {
        when (state) {
            is State.Ready -> return true
            is State.Failed -> return false
            State.NotStarted -> {}
        }
        state = try {
            val lib = NativeLibraryLocator.locate(DebuggerMcpService::class.java)
            System.load(lib.toAbsolutePath().toString())
            // Rust's log records go to idea.log (set before init so its start-up is logged too).
            NativeBridge.logSink = LogSink { level, target, message -> logFromRust(level, target, message) }
            val config = configPath()
            Files.createDirectories(config.parent)
            val handshake = NativeBridge.init(config.toString(), adapter)
            // Rust reports the URL in status(); only the IDE knows the built-in server's port.
            NativeBridge.setServerUrl(url())
            com.debuggermcp.ui.InstallOnAgentsDiscovery.publish(url(), BuiltInServerManager.getInstance().port)
            LOG.info("Debugger MCP engine started: $handshake")
            State.Ready(handshake)
        } catch (t: Throwable) {
            // UnsatisfiedLinkError and friends must not take the IDE down: the tool window and
            // the HTTP handler show the message instead.
            LOG.warn("Debugger MCP engine could not start", t)
            State.Failed(t.message ?: t.javaClass.name)
        }
        return state is State.Ready
    }

    /**
     * Rust's levels: 1 error, 2 warn, 3 info, 4 debug, 5 trace. Engine errors are logged as
     * warnings: Logger.error would report them to the user as IDE internal errors.
     */
    private fun logFromRust(level: Int, target: String, message: String) {
        val text = "[$target] $message"
        when (level) {
            1, 2 -> RUST_LOG.warn(text)
            3 -> RUST_LOG.info(text)
            else -> RUST_LOG.debug(text)
        }
    }

    /** The MCP endpoint on the IDE's built-in server. */
    fun url(): String = "http://127.0.0.1:${BuiltInServerManager.getInstance().port}$ENDPOINT"

    /** Rust's status JSON as a map, or null while the engine is not running. */
    fun status(): Map<String, Any?>? = if (!isReady) null else try {
        Json.parseObject(NativeBridge.status())
    } catch (t: Throwable) {
        LOG.warn("status() failed", t)
        null
    }

    override fun dispose() {
        if (state is State.Ready) {
            com.debuggermcp.ui.InstallOnAgentsDiscovery.withdraw()
            try {
                NativeBridge.shutdown()
            } catch (t: Throwable) {
                LOG.warn("engine shutdown failed", t)
            }
        }
        state = State.NotStarted
    }

    companion object {
        const val ENDPOINT = "/debugger-mcp"
        const val PLUGIN_ID = "com.debuggermcp"
        private val LOG = Logger.getInstance(DebuggerMcpService::class.java)
        private val RUST_LOG = Logger.getInstance("#com.debuggermcp.native")

        /** Settings TOML owned by Rust, kept with the IDE's other settings. */
        fun configPath() = Paths.get(PathManager.getConfigPath(), "debugger-mcp", "settings.toml")

        fun getInstance(): DebuggerMcpService =
            ApplicationManager.getApplication().getService(DebuggerMcpService::class.java)
    }
}
