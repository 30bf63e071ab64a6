package com.debuggermcp.fakes

import com.intellij.openapi.Disposable
import com.intellij.util.messages.MessageBus
import com.intellij.util.messages.MessageBusConnection
import com.intellij.util.messages.Topic
import java.util.concurrent.CopyOnWriteArrayList

/**
 * A project message bus (MessageBusImpl's observable behaviour for the adapter's calls): handlers
 * subscribed through a connection receive what is published on their topic, synchronously on the
 * publisher's thread (syncPublisher), until the connection is disconnected.
 */
class FakeMessageBus : MessageBus {
    private class Subscription(val connection: Any, val topic: Topic<*>, val handler: Any)

    private val subscriptions = CopyOnWriteArrayList<Subscription>()

    /** Delivers [event] to every handler of [topic], as `syncPublisher(topic).event(…)` does. */
    @Suppress("UNCHECKED_CAST")
    fun <L : Any> publish(topic: Topic<L>, event: (L) -> Unit) {
        for (s in subscriptions) if (s.topic === topic) event(s.handler as L)
    }

    fun subscribers(topic: Topic<*>): Int = subscriptions.count { it.topic === topic }

    override fun connect(): MessageBusConnection = object : MessageBusConnection {
        override fun <L : Any> subscribe(topic: Topic<L>, handler: L) {
            subscriptions += Subscription(this, topic, handler)
        }

        override fun disconnect() {
            subscriptions.removeIf { it.connection === this }
        }

        override fun dispose() = disconnect()
    }

    override fun connect(parentDisposable: Disposable): MessageBusConnection = connect()
    override fun dispose() = subscriptions.clear()
}
