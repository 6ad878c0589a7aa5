package dev.weft.launcher.run;

import dev.weft.scenario.NodeSpec;
import dev.weft.scenario.Scenario;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import java.util.List;

/**
 * The limits {@code weft run} enforces on what it is asked to start, checked before anything starts (docs/security.md,
 * "Input limits"): how many nodes, which characters a program and its arguments may hold, and — because
 * docs/broker.md promises it — that a scenario's {@code activate_partition} specs are well formed. Each refusal is
 * one line naming the node or event and what is wrong.
 */
public final class RunLimits {
    /** Nodes one run may start ({@code --nodes K} or a scenario's {@code nodes}): each is a process tree of its own. */
    public static final int MAX_NODES = 1024;

    private RunLimits() {
    }

    /** A scenario that asks for more than a run may do; the message is the whole reason. */
    public static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** Checks a loaded scenario; the first problem, in node then event order, is thrown. */
    public static void check(Scenario s) throws Refused {
        if (s.nodes().size() > MAX_NODES) {
            throw new Refused(s.nodes().size() + " nodes; a run starts at most " + MAX_NODES);
        }
        for (NodeSpec n : s.nodes()) {
            checkCommand("node " + Long.toUnsignedString(n.nodeId()), n.program(), n.args());
        }
        for (ScenarioEvent e : s.events()) {
            if (e.action() instanceof ScenarioAction.ActivatePartition p) {
                String problem = partitionProblem(p.spec());
                if (problem != null) {
                    throw new Refused("event at t=" + Long.toUnsignedString(e.timeNs()) + ": activate_partition spec \""
                            + printable(p.spec()) + "\": " + problem);
                }
            }
        }
    }

    /**
     * A program must be a name or path without control characters; an argument may hold tab, newline and carriage
     * return (scripts pass them) but no NUL (exec cannot carry one) nor any other control character.
     */
    public static void checkCommand(String who, String program, List<String> args) throws Refused {
        if (program.isEmpty()) {
            throw new Refused(who + ": the program is empty");
        }
        String bad = badCharacter(program, false);
        if (bad != null) {
            throw new Refused(who + ": program \"" + printable(program) + "\" holds " + bad);
        }
        for (int i = 0; i < args.size(); i++) {
            bad = badCharacter(args.get(i), true);
            if (bad != null) {
                throw new Refused(who + ": argument " + (i + 1) + " \"" + printable(args.get(i)) + "\" holds " + bad);
            }
        }
    }

    /** The first character a program (or, with {@code argument}, an argument) may not hold, described; else null. */
    private static String badCharacter(String s, boolean argument) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean control = c < 0x20 || c == 0x7f;
            if (c == 0) {
                return "a NUL character at offset " + i + " (a program's name and arguments cannot carry one)";
            }
            if (control && !(argument && (c == '\t' || c == '\n' || c == '\r'))) {
                return String.format("the control character U+%04X at offset %d", (int) c, i);
            }
        }
        return null;
    }

    /**
     * The scenario DSL's rule for {@code network.partitions} (scenario-dsl.md §2) applied to an event's spec: groups of
     * node ids joined by '+', separated by '|', no empty group or id. Null if fine.
     */
    static String partitionProblem(String raw) {
        String s = raw.strip();
        if (s.isEmpty()) {
            return null; // no groups: cuts nothing, as in the net spec
        }
        for (String group : s.split("\\|", -1)) {
            if (group.isEmpty()) {
                return "empty group (consecutive '|' or a leading or trailing '|')";
            }
            for (String id : group.split("\\+", -1)) {
                String t = id.strip();
                if (t.isEmpty()) {
                    return "empty node id in group \"" + group + "\"";
                }
                if (!t.matches("[0-9]{1,10}") || Long.parseLong(t) > 0xFFFF_FFFFL) {
                    return "'" + printable(t) + "' is not a node id";
                }
            }
        }
        return null;
    }

    /** {@code s} with control characters shown as \\uXXXX and cut at 80 characters, for one clean line. */
    static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && b.length() < 80; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.length() >= 80 && s.length() > 80 ? b + "…" : b.toString();
    }
}
