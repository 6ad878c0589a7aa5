package dev.weft.launcher.run;

import dev.weft.net.NetSpecException;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import java.util.List;

/** Checks a fault plan's events against the run they are for, before it starts (docs/fault-plans.md, "Events"). */
final class PlanEvents {

    private PlanEvents() {
    }

    /** One line naming what is wrong with {@code events} for a run of nodes {@code ids}, or null. */
    static String problem(List<ScenarioEvent> events, List<Long> ids) {
        for (int i = 0; i < events.size(); i++) {
            ScenarioEvent e = events.get(i);
            Long node = e.action() instanceof ScenarioAction.Crash c ? Long.valueOf(c.nodeId())
                    : e.action() instanceof ScenarioAction.Start s ? Long.valueOf(s.nodeId()) : null;
            if (node != null && !ids.contains(node)) {
                return "member events[" + i + "]: node " + Long.toUnsignedString(node) + " is not one of the run's nodes";
            }
            if (i > 0 && Long.compareUnsigned(e.timeNs(), events.get(i - 1).timeNs()) < 0) {
                return "member events[" + i + "]: time_ns " + Long.toUnsignedString(e.timeNs())
                        + " is before the event above it (events are in time order)";
            }
        }
        try {
            ScenarioDriver.validate(events);
        } catch (NetSpecException e) {
            return "member events: " + e.getMessage();
        }
        return null;
    }
}
