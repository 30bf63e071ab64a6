package com.debuggermcp.fakes

import com.intellij.openapi.application.Application
import com.intellij.openapi.application.ApplicationManager
import com.intellij.openapi.application.ModalityState
import com.intellij.openapi.util.Computable
import com.intellij.util.messages.MessageBus
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.Executors
import java.util.concurrent.Future
import java.util.concurrent.TimeUnit

/**
 * The Application the adapter sees in the JUnit tests: one EDT thread, read and write actions
 * tracked per thread, application services by class, and a list of threading-contract
 * violations. Fakes call [requireEdt], [requireRead], [requireWrite], [requireBackground] and
 * [requireNoReadLock] where the real implementation carries `@RequiresEdt`, `@RequiresReadLock`,
 * `@RequiresWriteLock`, `@RequiresBackgroundThread` or a documented rule (each call cites it);
 * a violation is recorded (and thrown) so a test fails even when the adapter swallows the
 * exception. Installed with ApplicationManager.setApplication, as the platform's own tests do.
 *
 * Rules taken from the platform (threading model of 2025.x):
 * - `invokeLater` runnables run on the EDT under the write-intent lock, which allows reads there.
 * - write actions run only on the EDT (ApplicationImpl.runWriteAction asserts the write thread).
 * - read actions may run on any thread; on the EDT they are implied.
 */
class FakeApplication : Application {
    /**
     * The EDT's event queue. A modal dialog (DialogWrapper.show → the peer's modal `show()`) runs
     * a nested loop on the EDT that dispatches only runnables whose modality allows it: those
     * posted with ModalityState.any() run, nonModal() ones wait until the dialog closes
     * (ModalityState's javadoc; LaterInvocator). [modalLoop] models that loop.
     */
    private val queue = java.util.concurrent.LinkedBlockingDeque<Pair<ModalityState, Runnable>>()
    private val edtThread: Thread = Thread({
        try {
            while (true) dispatch(queue.take())
        } catch (_: InterruptedException) {
        }
    }, "fake-EDT").also { it.isDaemon = true; it.start() }
    @Volatile private var modalDepth = 0
    private val pool = Executors.newCachedThreadPool { r -> Thread(r, "fake-pool").also { it.isDaemon = true } }
    private val readDepth = ThreadLocal.withInitial { 0 }
    @Volatile private var writeDepth = 0

    val services = ConcurrentHashMap<Class<*>, Any>()
    val violations = CopyOnWriteArrayList<String>()

    /** Modality of every invokeLater, with a label of what ran (see [label]). */
    val invocations = CopyOnWriteArrayList<Pair<String, String>>()

    /** What the next invokeLater runnable is (set by fakes that care); reset after each. */
    @Volatile var label: String = ""

    fun isEdt(): Boolean = Thread.currentThread() === edtThread
    fun holdsReadLock(): Boolean = readDepth.get() > 0 || isEdt()
    fun holdsExplicitReadAction(): Boolean = readDepth.get() > 0

    private fun violation(text: String): Nothing {
        violations += text
        throw IllegalStateException("threading contract: $text")
    }

    private fun where() = Thread.currentThread().name

    fun requireEdt(api: String) { if (!isEdt()) violation("$api needs the EDT, called on ${where()}") }
    fun requireRead(api: String) { if (!holdsReadLock()) violation("$api needs a read action, called on ${where()} without one") }
    fun requireWrite(api: String) { if (writeDepth == 0 || !isEdt()) violation("$api needs a write action, called on ${where()} without one") }
    /**
     * Debugger commands run as the platform's actions run them: never from a runnable posted with
     * ModalityState.any(), which a modal dialog's loop dispatches (XDebuggerActionBase is not
     * enabled in a modal context).
     */
    fun requireNotAnyModality(api: String) {
        if (isEdt() && runningModality === ModalityState.any()) violation("$api posted with ModalityState.any(): a modal dialog's loop may run it")
    }
    fun requireBackground(api: String) { if (isEdt()) violation("$api must not run on the EDT") }
    fun requireNoReadLock(api: String) { if (holdsExplicitReadAction()) violation("$api must not run inside a read action (${where()})") }

    /**
     * Dumb mode (indexing). Index access in a plain read action then throws
     * IndexNotReadyException (FileBasedIndexImpl; "Please change caller according to
     * IndexNotReadyException documentation"); `smartReadAction` waits for smart mode first
     * (coroutines.kt: `readAction { constrainedReadAction(ReadConstraint.inSmartMode(project)) }`),
     * modelled as indexing ending while it waits.
     */
    @Volatile var dumb = false
    private val smartRead = ThreadLocal.withInitial { 0 }
    val waitedForSmartMode = java.util.concurrent.atomic.AtomicInteger()

    /** Index-dependent platform code (FilenameIndex, producers, checkSettings) calls this. */
    fun requireSmart(api: String) {
        if (dumb && smartRead.get() == 0) {
            violations += "$api used the indexes in a plain read action during indexing"
            throw IndexNotReady("$api: Please change caller according to IndexNotReadyException documentation")
        }
    }

    /** Stands in for com.intellij.openapi.project.IndexNotReadyException (a RuntimeException). */
    class IndexNotReady(message: String) : RuntimeException(message)

    override fun <T> runReadAction(computation: Computable<T>): T {
        // The stubs' smartReadAction runs its action through here: recognise it by its frame.
        val frames = Thread.currentThread().stackTrace
        val smart = frames.any { it.className == "com.intellij.openapi.application.CoroutinesKt" && it.methodName == "smartReadAction" }
        val suspending = smart || frames.any { it.className == "com.intellij.openapi.application.CoroutinesKt" && it.methodName == "readAction" }
        // coroutines.kt, constrainedReadAction (file id 6742766392): check(!isDispatchThread) { "Must not call from EDT" },
        // and it cannot wait for smart mode while the caller already holds the read lock.
        if (suspending && isEdt()) violation("readAction/smartReadAction must not be called from the EDT")
        if (smart && dumb && readDepth.get() > 0) violation("smartReadAction cannot wait for smart mode while holding the read lock")
        if (smart && dumb) {
            dumb = false
            waitedForSmartMode.incrementAndGet()
        }
        readDepth.set(readDepth.get() + 1)
        if (smart) smartRead.set(smartRead.get() + 1)
        try {
            return computation.compute()
        } finally {
            readDepth.set(readDepth.get() - 1)
            if (smart) smartRead.set(smartRead.get() - 1)
        }
    }

    override fun <T> runWriteAction(computation: Computable<T>): T {
        if (!isEdt()) violation("runWriteAction off the EDT (${where()})")
        requireWriteSafe("runWriteAction")
        writeDepth++
        try {
            return runReadAction(computation)
        } finally {
            writeDepth--
        }
    }

    /** Modality of the EDT runnable now running (null outside one). */
    @Volatile private var runningModality: ModalityState? = null

    /**
     * TransactionGuardImpl.assertWriteSafeContext / assertWriteActionAllowed (file id 3527215818):
     * model changes need the EDT in a write-safe modality; a runnable posted with
     * ModalityState.any() is not ("Write-unsafe context! … (not "any")").
     */
    fun requireWriteSafe(api: String) {
        if (!isEdt()) violation("$api needs the EDT, called on ${where()}")
        if (runningModality === ModalityState.any()) violation("$api in a write-unsafe context (invokeLater with ModalityState.any())")
    }

    override fun invokeLater(runnable: Runnable, state: ModalityState) {
        invocations += state.toString() to label
        label = ""
        queue.put(state to runnable)
    }

    private fun dispatch(event: Pair<ModalityState, Runnable>) {
        val outer = runningModality
        runningModality = event.first
        try {
            event.second.run()
        } catch (t: Throwable) {
            if (t !is IllegalStateException || t.message?.startsWith("threading contract") != true) {
                violations += "uncaught on the EDT: $t at ${t.stackTrace.take(4).joinToString(" < ")}"
            }
        } finally {
            runningModality = outer
        }
    }

    /**
     * A modal dialog's event loop, on the EDT, until [closed]: only ModalityState.any() runnables
     * are dispatched; nonModal ones are kept, in order, for after the dialog.
     */
    fun modalLoop(closed: () -> Boolean) {
        requireEdt("a modal dialog's show()")
        val deferred = ArrayList<Pair<ModalityState, Runnable>>()
        modalDepth++
        try {
            while (!closed()) {
                val event = queue.poll(10, TimeUnit.MILLISECONDS) ?: continue
                if (event.first === ModalityState.any()) dispatch(event) else deferred += event
            }
        } finally {
            modalDepth--
            for (event in deferred.asReversed()) queue.putFirst(event)
        }
    }

    /** Whether a modal dialog is open (its loop is running on the EDT). */
    fun modalOpen(): Boolean = modalDepth > 0

    /** How many EDT events wait behind the one running (AttachFakes: a session's init lasts until others wait). */
    fun edtEventsWaiting(): Int = queue.size

    override fun executeOnPooledThread(action: Runnable): Future<*> = pool.submit(action)

    override fun getMessageBus(): MessageBus = throw UnsupportedOperationException("no message bus in the fake application")
    override fun isDisposed(): Boolean = false

    @Suppress("UNCHECKED_CAST")
    override fun <T> getService(serviceClass: Class<T>): T =
        (services[serviceClass] ?: throw IllegalStateException("no fake service ${serviceClass.name}")) as T

    override fun dispose() {
        edtThread.interrupt()
        pool.shutdownNow()
        edtThread.join(1_000)
    }

    companion object {
        /** The installed fake, for fakes that check a contract of the API they stand in for. */
        fun current(): FakeApplication = ApplicationManager.getApplication() as FakeApplication

        fun install(): FakeApplication = FakeApplication().also { ApplicationManager.setApplication(it, it) }
    }
}
