package com.debuggermcp.adapter

import java.lang.ref.WeakReference
import java.util.IdentityHashMap
import java.util.WeakHashMap

/**
 * Objects handed to Rust by handle (frames, values, groups) for one session. Handles are short
 * ("f3", "v12"), the same object gets the same handle, and everything is dropped on resume:
 * platform XValue objects are only valid while the session stays suspended.
 */
class HandleTable {
    class Entry(val obj: Any, val name: String, val extra: Any?)

    private val byHandle = HashMap<String, Entry>()
    private val byObject = IdentityHashMap<Any, String>()
    private var next = 0L

    @Synchronized
    fun register(prefix: String, obj: Any, name: String = "", extra: Any? = null): String {
        byObject[obj]?.let { return it }
        val handle = prefix + (++next)
        byHandle[handle] = Entry(obj, name, extra)
        byObject[obj] = handle
        return handle
    }

    @Synchronized
    fun get(handle: String): Entry? = byHandle[handle]

    @Synchronized
    fun clear() {
        byHandle.clear()
        byObject.clear()
        // `next` keeps counting so a stale handle from before the resume can never alias a new one.
    }

    @Synchronized
    fun size() = byHandle.size
}

/**
 * Stable short ids ("s1", "b7") for platform objects we do not own (sessions, breakpoints),
 * without keeping them alive: a removed breakpoint or a finished session can be collected.
 */
class IdRegistry<T : Any>(private val prefix: String) {
    private val ids = WeakHashMap<T, String>()
    private val objects = HashMap<String, WeakReference<T>>()
    private var next = 0L

    @Synchronized
    fun idOf(obj: T): String = ids.getOrPut(obj) {
        val id = prefix + (++next)
        objects[id] = WeakReference(obj)
        id
    }

    @Synchronized
    fun find(id: String): T? {
        val ref = objects[id] ?: return null
        val obj = ref.get()
        if (obj == null) objects.remove(id)
        return obj
    }

    @Synchronized
    fun forget(obj: T) {
        ids.remove(obj)?.let { objects.remove(it) }
    }
}
