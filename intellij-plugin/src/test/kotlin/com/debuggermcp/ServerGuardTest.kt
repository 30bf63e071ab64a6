package com.debuggermcp

import com.debuggermcp.adapter.OrderedEvents
import com.debuggermcp.http.RequestGuard
import com.debuggermcp.http.ServerUrl
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.delay
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

@Timeout(20)
class ServerGuardTest {
    /**
     * Like BuiltInServerManager when 63342 is busy: before the server has bound, `port` reports
     * the default; after binding it reports the port actually taken.
     */
    private class FakeServer {
        @Volatile var port = 63342
        private val bound = CountDownLatch(1)
        fun bindLater() = Thread {
            Thread.sleep(100)
            port = 63343
            bound.countDown()
        }.start()
        fun waitForStart() = check(bound.await(5, TimeUnit.SECONDS))
    }

    @Test
    fun `the reported URL uses the port the server bound, not the one before binding`() {
        val server = FakeServer()
        server.bindLater()
        val url = ServerUrl.afterBind({ server.waitForStart() }, { server.port })
        assertEquals("http://127.0.0.1:63343/debugger-mcp", url)
    }

    @Test
    fun `hosts must be loopback and name the server's own port`() {
        assertNull(RequestGuard.check("127.0.0.1:63342", null, 63342))
        assertNull(RequestGuard.check("localhost:63342", null, 63342))
        assertNull(RequestGuard.check("[::1]:63342", null, 63342))
        // The IDE's own check ignores ports; ours does not.
        assertEquals(403, RequestGuard.check("127.0.0.1:3000", null, 63342)?.status)
        assertEquals(403, RequestGuard.check("localhost", null, 63342)?.status) // port 80 implied
        assertEquals(403, RequestGuard.check("evil.example:63342", null, 63342)?.status)
        assertEquals(403, RequestGuard.check("127.0.0.1.nip.io:63342", null, 63342)?.status)
        assertEquals(400, RequestGuard.check(null, null, 63342)?.status)
        assertEquals(400, RequestGuard.check("user@127.0.0.1:63342", null, 63342)?.status)
    }

    @Test
    fun `an Origin must be a loopback page on the same port`() {
        assertNull(RequestGuard.check("127.0.0.1:63342", "http://localhost:63342", 63342))
        assertNull(RequestGuard.check("127.0.0.1:63342", "http://127.0.0.1:63342/", 63342))
        // Another local web server's page (the IDE's CORS handler would echo it back).
        val other = RequestGuard.check("127.0.0.1:63342", "http://localhost:3000", 63342)
        assertNotNull(other)
        assertEquals(403, other!!.status)
        assertTrue(other.message.contains("63342"), other.message)
        for (bad in listOf("null", "http://evil.example:63342", "file://localhost", "chrome-extension://abc", "http://localhost")) {
            assertEquals(403, RequestGuard.check("127.0.0.1:63342", bad, 63342)?.status, bad)
        }
    }

    @Test
    fun `events run in submission order even when an earlier one suspends`() {
        val scope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
        try {
            val seen = Collections.synchronizedList(ArrayList<String>())
            val done = CountDownLatch(3)
            val events = OrderedEvents(scope) { seen.add("error: ${it.message}") }
            // A paused event takes a (suspending) read action; the resume after it must wait.
            events.submit { delay(200); seen.add("paused"); done.countDown() }
            events.submit { error("bridge down") }
            events.submit { seen.add("resumed"); done.countDown() }
            events.submit { seen.add("stopped"); done.countDown() }
            assertTrue(done.await(5, TimeUnit.SECONDS))
            assertEquals(listOf("paused", "error: bridge down", "resumed", "stopped"), seen.toList())
        } finally {
            scope.cancel()
        }
    }
}
