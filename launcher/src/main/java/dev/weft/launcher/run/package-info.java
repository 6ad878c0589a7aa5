/**
 * {@code weft run} and {@code weft hostd}: starting a program under the LD_PRELOAD shim with the run's
 * {@code WEFT_*} environment ({@link dev.weft.launcher.run.RunCommand}, {@link dev.weft.launcher.run.RunOptions},
 * {@link dev.weft.launcher.run.ShimLocator}, {@link dev.weft.launcher.run.TargetIsolation}); clusters and scenarios
 * under the live broker hosted in this JVM ({@link dev.weft.launcher.run.RunInputs} resolves what a run starts,
 * {@link dev.weft.launcher.run.NodePlan} each node, {@link dev.weft.launcher.run.ClusterRun} runs them,
 * {@link dev.weft.launcher.run.ScenarioDriver} plays the scenario); nodes on other machines through host agents
 * ({@link dev.weft.launcher.run.HostAgent}, {@link dev.weft.launcher.run.RemoteHost},
 * {@link dev.weft.launcher.run.Placement}); and {@link dev.weft.launcher.run.RunInChildJvm} for the workbench.
 */
package dev.weft.launcher.run;
