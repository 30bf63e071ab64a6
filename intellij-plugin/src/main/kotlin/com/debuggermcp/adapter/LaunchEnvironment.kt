package com.debuggermcp.adapter

/**
 * The calls the launch op makes on the platform's ExecutionEnvironmentBuilder, free of IntelliJ
 * types so a unit test can check them against a fake builder (LaunchEnvironmentTest).
 */
internal interface LaunchEnvironmentBuilder<Ctx, Env> {
    /** The execution target selected in the Run toolbar (the builder's default is none). */
    fun activeTarget()

    fun dataContext(context: Ctx)

    fun build(): Env
}

/**
 * Builds the environment as the platform's own Run/Debug paths do (ExecutionUtil.doRunConfiguration
 * behind the Run toolbar, ProgramRunnerUtil.executeConfiguration(settings, executor)):
 *  - the toolbar's active target;
 *  - no run-content tab chosen here: both platform paths leave contentToReuse null, and when the
 *    run starts the platform picks the Run/Debug tab to reuse itself (RunContentManager.getReuseContent),
 *    so an agent's relaunch replaces the same tab a click would;
 *  - a data context: the toolbar passes its AnActionEvent's context; an agent's request has no UI
 *    event, so [projectContext] (a context holding only the project) stands in for it, and runners
 *    that read the project from the environment's data context find it instead of null.
 */
internal fun <Ctx, Env> buildLaunchEnvironment(builder: LaunchEnvironmentBuilder<Ctx, Env>, projectContext: () -> Ctx): Env {
    builder.activeTarget()
    builder.dataContext(projectContext())
    return builder.build()
}
