package dev.weft.launcher.run;

import dev.weft.broker.WindowedSequencer;
import dev.weft.net.FateSource;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanException;
import dev.weft.net.FaultPlanJson;
import dev.weft.net.NetSpecException;
import dev.weft.scenario.NodeSpec;
import dev.weft.scenario.Scenario;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import dev.weft.scenario.ScenarioException;
import dev.weft.scenario.Scenarios;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one {@code weft run} starts, resolved from its options before anything exists (no recording, broker or host
 * agent): first its {@link Nodes} (from {@code --nodes} or the scenario), then — after a dry run has had its say —
 * its {@link Fates} (the seed's fault model, or a {@code --plan}). A mistake in what the run was given is refused
 * with one line ({@link Refused}); {@link ClusterRun} prints it and exits with {@link RunCommand#USAGE_ERROR}.
 */
final class RunInputs {
    private RunInputs() {
    }

    /** A mistake in what the run was given: the line {@code weft run} prints after "weft run: ". */
    static final class Refused extends Exception {
        Refused(String line) {
            super(line);
        }
    }

    /**
     * The nodes, network and events of a run.
     *
     * @param options the options, with the scenario's seed unless one was given
     * @param events the scenario's events (none without a scenario)
     * @param end when the run ends: {@code --end-when-exited}, else the scenario's {@code end_when_exited}
     */
    record Nodes(RunOptions options, String net, List<NodePlan> plans, List<ScenarioEvent> events,
            RunOptions.RunEnd end) {
    }

    /**
     * Where the run's fates come from.
     *
     * @param planDocument the {@code --plan} file's bytes (kept beside the recording), or null
     * @param events the plan's events where it has them, else the scenario's
     */
    record Fates(FateSource fault, byte[] planDocument, List<ScenarioEvent> events) {
    }

    static Nodes nodes(RunOptions o) throws Refused {
        RunOptions.Cluster c = o.cluster();
        if (c.scenario() == null) {
            List<NodePlan> plans = new ArrayList<>();
            for (long i = 0; i < c.nodes(); i++) {
                plans.add(new NodePlan(i, o.command(), Map.of()));
            }
            return new Nodes(o, c.net(), plans, List.of(), c.end());
        }
        Scenario s;
        try {
            s = Scenarios.load(c.scenario());
            ScenarioDriver.validate(s.events());
            RunLimits.check(s);
        } catch (RunLimits.Refused e) {
            throw new Refused(c.scenario() + ": " + e.getMessage());
        } catch (IOException e) {
            throw new Refused(c.scenario() + ": " + OsErrorText.of(e));
        } catch (ScenarioException | NetSpecException e) {
            throw new Refused(c.scenario() + ": " + e.getMessage());
        }
        List<NodePlan> plans = NodePlan.ofScenario(s);
        RunOptions.RunEnd end = c.end().orScenario(s.endWhenExited());
        for (NodeSpec n : s.nodes()) {
            for (String name : n.env().keySet()) {
                if (NodeEnvironment.unsettable(name) != null) {
                    throw new Refused(c.scenario() + ": node " + n.nodeId() + ": env " + name
                            + ": cannot be set for a node (" + NodeEnvironment.unsettable(name) + ")");
                }
            }
        }
        for (long id : end.nodes()) {
            if (plans.stream().noneMatch(p -> p.id() == id)) {
                throw new Refused(c.scenario() + ": " + (end.fromCommandLine() ? "--end-when-exited"
                        : "end_when_exited") + ": node " + id + " is not one of the scenario's nodes");
            }
        }
        RunOptions withSeed = o.withSeed(c.scenarioSeed() != null ? c.scenarioSeed() : s.seed());
        return new Nodes(withSeed, ScenarioNetSpec.of(s), plans, s.events(), end);
    }

    static Fates fates(Nodes n) throws Refused {
        RunOptions.Cluster c = n.options().cluster();
        FateSource fault;
        byte[] planDocument = null;
        List<ScenarioEvent> events = n.events();
        if (c.plan() != null) {
            try {
                planDocument = Files.readAllBytes(c.plan());
                FaultPlan plan = FaultPlanJson.parse(planDocument);
                if (!plan.net().equals(n.net())) {
                    throw new Refused("--plan " + c.plan() + ": member net: \"" + plan.net() + "\" is not --net \""
                            + n.net() + "\" (the plan's baseline comes from its net spec)");
                }
                fault = plan;
                if (plan.events() != null) {
                    // the plan's partitions and crashes replace the scenario's (docs/fault-plans.md, "Events")
                    String bad = PlanEvents.problem(plan.events(), n.plans().stream().map(NodePlan::id).toList());
                    if (bad != null) {
                        throw new Refused("--plan " + c.plan() + ": " + bad);
                    }
                    events = plan.events();
                }
            } catch (IOException e) {
                throw new Refused("--plan " + c.plan() + ": cannot read: " + OsErrorText.of(e));
            } catch (FaultPlanException e) {
                throw new Refused("--plan " + c.plan() + ": " + e.getMessage());
            }
        } else {
            try {
                fault = FaultModel.of(n.options().seed(), n.net());
            } catch (NetSpecException e) {
                throw new Refused("--net: " + e.getMessage());
            }
        }
        if (c.windowNs() > 0) {
            for (ScenarioEvent e : events) {
                if (e.action() instanceof ScenarioAction.Crash || e.action() instanceof ScenarioAction.Start) {
                    throw new Refused((c.scenario() != null ? c.scenario() : "--plan " + c.plan())
                            + ": --window: a windowed run cannot have crash or start"
                            + " events (t=" + Long.toUnsignedString(e.timeNs()) + "): a node that ends without"
                            + " Goodbye discards a windowed run, and a restarted node's clock starts over; partition"
                            + " events are fine");
                }
            }
            String problem = WindowedSequencer.lookaheadProblem(fault, c.windowNs());
            if (problem != null) {
                throw new Refused("--window " + c.windowNs() + ": " + problem + "; refusing to start (use a"
                        + " window of at most the minimum latency)");
            }
        }
        return new Fates(fault, planDocument, events);
    }
}
