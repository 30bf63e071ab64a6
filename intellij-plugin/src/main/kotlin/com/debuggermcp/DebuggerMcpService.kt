package com.debuggermcp

import com.debuggermcp.adapter.ControlOps
import com.debuggermcp.adapter.OrderedEvents
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
import com.debuggermcp.http.ServerUrl
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.launch
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import java.util.concurrent.TimeoutException
import kotlin.coroutines.cancellation.CancellationException
import org.jetbrains.ide.BuiltInServerManager
import java.nio.file.Files
import java.nio.file.Paths

/**
 * Owns the Rust engine for the whole IDE: loads the native library from the plugin directory,
 * starts it with the settings file and the XDebugger adapter, and shuts it down with the IDE.
 * One engine serves every open project (agents name the project per call).
 *
 * The [scope] is injected by the platform (light service with a coroutine scope), so every
 * coroutine the adapter starts is cancelled with the service.
 *
 * The plugin declares require-restart="true": a cdylib loaded by System.load stays bound to the
 * classloader that loaded it, so a dynamically reloaded plugin (new PluginClassLoader) could
 * never load it again (UnsatisfiedLinkError "already loaded in another classloader").
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

    /** Debugger events for Rust, in order, off the debugger's threads. */
    val events = OrderedEvents(scope) { LOG.warn("a debugger event could not be reported", it) }

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
            // PathManager.getJarPathForClass works for PluginClassLoader (no code source there).
            val lib = NativeLibraryLocator.locate(DebuggerMcpService::class.java) { cls ->
                PathManager.getJarPathForClass(cls)?.let { Paths.get(it) }
            }
            System.load(lib.toAbsolutePath().toString())
            // Rust's log records go to idea.log (set before init so its start-up is logged too).
            NativeBridge.logSink = LogSink { level, target, message -> logFromRust(level, target, message) }
            val config = configPath()
            Files.createDirectories(config.parent)
            val handshake = NativeBridge.init(config.toString(), adapter)
            // Rust reports the URL in status(); only the IDE knows the built-in server's port,
            // and only once the server has bound.
            publishUrlWhenBound()
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

    private val urlFuture = CompletableFuture<String>()

    /**
     * The MCP endpoint on the IDE's built-in server, or null until the server has bound (the
     * port before that is a guess: the server takes the next free port when 63342 is busy).
     */
    val url: String? get() = urlFuture.getNow(null)

    /** Waits (off the EDT) up to [timeoutMs] for the server's real URL; null if it does not come. */
    fun awaitUrl(timeoutMs: Long): String? = try {
        urlFuture.get(timeoutMs, TimeUnit.MILLISECONDS)
    } catch (_: TimeoutException) {
        null
    }

    /** waitForStart blocks, so it runs on the IO pool of the service scope, never on the EDT. */
    private fun publishUrlWhenBound() {
        scope.launch(Dispatchers.IO) {
            try {
                val server = BuiltInServerManager.getInstance()
                val url = ServerUrl.afterBind({ server.waitForStart() }, { server.port })
                NativeBridge.setServerUrl(url)
                urlFuture.complete(url)
                // The stdio bridge finds the IDE through this record; it needs the bound port too.
                com.debuggermcp.ui.InstallOnAgentsDiscovery.publish(url, server.port)
            } catch (t: Throwable) {
                if (t is CancellationException) throw t
                LOG.warn("could not determine the built-in server's port", t)
            }
        }
    }

    /** Rust's status JSON as a map, or null while the engine is not running. */
    fun status(): Map<String, Any?>? = if (!isReady) null else try {
        Json.parseObject(NativeBridge.status())
    } catch (t: Throwable) {
        LOG.warn("status() failed", t)
        null
    }

    override fun dispose() {
        // A session still paused after a step out holds the user's "Show Method Return Values";
        // give it back before the application saves its settings.
        try {
            ControlOps.restoreAllReturnValues()
        } catch (t: Throwable) {
            LOG.warn("could not restore Show Method Return Values", t)
        }
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
        const val ENDPOINT = ServerUrl.ENDPOINT
        const val PLUGIN_ID = "com.debuggermcp"
        private val LOG = Logger.getInstance(DebuggerMcpService::class.java)
        private val RUST_LOG = Logger.getInstance("#com.debuggermcp.native")

        /** Settings TOML owned by Rust, kept with the IDE's other settings. */
        fun configPath() = Paths.get(PathManager.getConfigPath(), "debugger-mcp", "settings.toml")

        fun getInstance(): DebuggerMcpService =
            ApplicationManager.getApplication().getService(DebuggerMcpService::class.java)
    }
}
