package com.debuggermcp.http

import java.net.URI

/**
 * Our own Host/Origin checks for requests that reach `/debugger-mcp` on the IDE's built-in
 * server, run before anything is relayed to Rust. The platform's checks are not enough: its CORS
 * handling echoes any Origin and its host check ignores the port, so a page served by another
 * local web server (http://localhost:3000) would pass them. Pure logic (no IntelliJ or Netty
 * types) so it is unit-tested here.
 *
 * What clients must send (docs/PLUGIN_VERIFICATION.md repeats it):
 * - `Host: 127.0.0.1:<port>` or `localhost:<port>`, with the port the IDE actually serves on
 *   (63342 unless it was busy). The built-in server listens on IPv4 loopback only
 *   (BuiltInServer.bind: `bootstrap.bind(NetUtils.getLoopbackAddress(), port)`, file id
 *   4844329711), so `[::1]` is never reached; a `[::1]` Host header is still accepted;
 * - no `Origin`, or a loopback Origin with that same port (a page the IDE itself serves);
 * - for POST/DELETE, either no browser User-Agent (`Mozilla/5.0 ...`) or an Origin: the IDE
 *   drops browser-looking writes without Origin before our handler sees them (404).
 */
object RequestGuard {
    class Rejection(val status: Int, val message: String)

    private val LOOPBACK = setOf("localhost", "127.0.0.1", "::1", "[::1]")

    /** null when the request may pass; else the 403 to answer. [serverPort] is the port the request arrived on. */
    fun check(host: String?, origin: String?, serverPort: Int): Rejection? {
        if (host.isNullOrBlank()) return Rejection(400, "Host header is required (use 127.0.0.1:$serverPort)")
        val (hostName, hostPort) = splitAuthority(host.trim(), defaultPort = 80)
            ?: return Rejection(400, "Host '$host' is not a valid host[:port]")
        if (hostName.lowercase() !in LOOPBACK) {
            return Rejection(403, "Host '$host' is not allowed: use 127.0.0.1:$serverPort or localhost:$serverPort (DNS rebinding protection)")
        }
        if (hostPort != serverPort) {
            return Rejection(403, "Host '$host' names port $hostPort, but this server listens on $serverPort")
        }
        if (origin != null) {
            val o = origin.trim()
            val uri = try { URI(o) } catch (_: Exception) { null }
            val scheme = uri?.scheme?.lowercase()
            val originHost = uri?.host?.lowercase()
            val originPort = when {
                uri == null -> -1
                uri.port != -1 -> uri.port
                scheme == "https" -> 443
                else -> 80
            }
            val ok = uri != null && (scheme == "http" || scheme == "https") && originHost != null &&
                originHost in LOOPBACK && originPort == serverPort && (uri.rawPath.isNullOrEmpty() || uri.rawPath == "/")
            if (!ok) {
                return Rejection(403, "Origin '$o' is not allowed: only pages served on this IDE's own port ($serverPort) may call it; command-line clients send no Origin")
            }
        }
        return null
    }

    /** `host[:port]`, `[v6]:port`; null when malformed. */
    fun splitAuthority(authority: String, defaultPort: Int): Pair<String, Int>? {
        if (authority.contains('@') || authority.contains('/')) return null
        if (authority.startsWith("[")) {
            val end = authority.indexOf(']')
            if (end < 0) return null
            val name = authority.substring(0, end + 1)
            val rest = authority.substring(end + 1)
            if (rest.isEmpty()) return name to defaultPort
            if (!rest.startsWith(":")) return null
            return name to (rest.substring(1).toIntOrNull()?.takeIf { it in 1..65535 } ?: return null)
        }
        val colon = authority.lastIndexOf(':')
        if (colon < 0) return authority to defaultPort
        val port = authority.substring(colon + 1).toIntOrNull()?.takeIf { it in 1..65535 } ?: return null
        return authority.substring(0, colon) to port
    }
}

/**
 * The MCP URL of the IDE's built-in server. Before the server has bound, `BuiltInServerManager.port`
 * reports the default port, which is wrong whenever 63342 was taken and the server moved on to
 * the next free one; so the port is read only after [waitForStart] returned. [waitForStart]
 * blocks: never call this on the EDT.
 */
object ServerUrl {
    const val ENDPOINT = "/debugger-mcp"

    fun afterBind(waitForStart: () -> Unit, port: () -> Int): String {
        waitForStart()
        return "http://127.0.0.1:${port()}$ENDPOINT"
    }
}
