package com.debuggermcp

import com.debuggermcp.adapter.LaunchEnvironmentBuilder
import com.debuggermcp.adapter.buildLaunchEnvironment
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

/**
 * The launch op builds its ExecutionEnvironment the way the platform's Run/Debug paths do
 * (ExecutionUtil.doRunConfiguration, ProgramRunnerUtil.executeConfiguration). The fake behaves
 * like ExecutionEnvironmentBuilder: unless told otherwise it uses the default target and no data
 * context, and each build() makes a new environment.
 */
class LaunchEnvironmentTest {
    private class Context(val projectName: String)
    private data class Environment(val target: String, val dataContextProject: String?)

    private class FakeBuilder : LaunchEnvironmentBuilder<Context, Environment> {
        private var target = "default target"
        private var context: Context? = null
        var builds = 0

        override fun activeTarget() {
            target = "toolbar target"
        }

        override fun dataContext(context: Context) {
            this.context = context
        }

        override fun build(): Environment {
            builds++
            return Environment(target, context?.projectName)
        }
    }

    @Test
    fun `the launch runs on the toolbar's target with the project in its data context`() {
        val builder = FakeBuilder()
        val env = buildLaunchEnvironment(builder) { Context("demo") }
        assertEquals(Environment("toolbar target", "demo"), env)
        assertEquals(1, builder.builds)
    }
}
