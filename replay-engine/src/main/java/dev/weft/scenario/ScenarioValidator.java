package dev.weft.scenario;

import dev.weft.text.RustText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Steps 2-5 of scenario-dsl.md §2 on a parsed scenario: field validation (network, then filesystem),
 * the stable sort of events by time, then the consistency checks; the first failure is thrown.
 * Where the reference walks a hash map (filesystem entries) we walk node ids ascending, so the
 * error reported among several is always the same one.
 */
final class ScenarioValidator {

    private ScenarioValidator() {
    }

    /** Returns the scenario with its events sorted by time_ns (stable), or throws the first error. */
    static Scenario validate(Scenario s) throws ScenarioException {
        if (s.network() != null) validateNetwork(s.network());
        if (s.filesystem() != null) {
            for (FilesystemFaults fs : s.filesystem().values()) {
                Double torn = fs.tornWriteProbability();
                if (torn != null && !(torn >= 0.0 && torn <= 1.0)) throw ScenarioException.invalidLossProbability(torn);
            }
        }
        List<ScenarioEvent> events = new ArrayList<>(s.events());
        events.sort(Comparator.comparing(ScenarioEvent::timeNs, Long::compareUnsigned)); // List.sort is stable
        Scenario sorted = s.withEvents(events);
        checkConsistency(sorted);
        return sorted;
    }

    private static void validateNetwork(NetworkSpec net) throws ScenarioException {
        if (net.latency() != null) validateLatency(net.latency());
        if (net.loss() != null) {
            double loss = net.loss();
            if (!(loss >= 0.0 && loss <= 1.0)) throw ScenarioException.invalidLossProbability(loss);
        }
        if (net.bandwidth() != null && net.bandwidth() == 0) throw ScenarioException.invalidBandwidth(0);
        if (net.partitions() != null) validatePartitions(net.partitions());
    }

    static void validateLatency(String raw) throws ScenarioException {
        String l = RustText.trim(raw);
        String reason = latencyProblem(l);
        if (reason != null) throw ScenarioException.invalidLatency(l, reason);
    }

    /** null when the trimmed latency is fine, else the reason text. */
    private static String latencyProblem(String l) {
        try {
            if (l.startsWith("fixed:")) {
                RustText.parseU64(l.substring(6));
                return null;
            }
            if (l.startsWith("uniform:")) {
                String rest = l.substring(8);
                int dash = rest.indexOf('-');
                if (dash < 0) return "uniform format is 'uniform:LO-HI' (e.g., 'uniform:100-5000')";
                long lo, hi;
                try {
                    lo = RustText.parseU64(rest.substring(0, dash));
                } catch (RustText.IntParseException e) {
                    return "lo: " + e.rustReason();
                }
                try {
                    hi = RustText.parseU64(rest.substring(dash + 1));
                } catch (RustText.IntParseException e) {
                    return "hi: " + e.rustReason();
                }
                if (Long.compareUnsigned(lo, hi) > 0) {
                    return "lo (" + Long.toUnsignedString(lo) + ") must be <= hi (" + Long.toUnsignedString(hi) + ")";
                }
                return null;
            }
            if (l.startsWith("exp:")) {
                long mean = RustText.parseU64(l.substring(4));
                return mean == 0 ? "mean must be > 0" : null;
            }
            return "must be 'fixed:N', 'uniform:LO-HI', or 'exp:MEAN'";
        } catch (RustText.IntParseException e) {
            return e.rustReason();
        }
    }

    static void validatePartitions(String raw) throws ScenarioException {
        String s = RustText.trim(raw);
        if (s.isEmpty()) return;
        for (String group : split(s, '|')) {
            if (group.isEmpty()) throw ScenarioException.invalidPartition(s, "empty group (consecutive '|' or leading '|')");
            for (String token : split(group, '+')) {
                if (token.isEmpty()) throw ScenarioException.invalidPartition(s, "empty node ID in group");
                try {
                    RustText.parseU64(token);
                } catch (RustText.IntParseException e) {
                    throw ScenarioException.invalidPartition(s, "'" + token + "' is not a valid node ID");
                }
            }
        }
    }

    /** Splits on every occurrence, keeping empty pieces (also leading and trailing ones). */
    private static List<String> split(String s, char sep) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == sep) {
                parts.add(s.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(s.substring(start));
        return parts;
    }

    private static void checkConsistency(Scenario s) throws ScenarioException {
        long count = s.nodes().size();
        for (int i = 0; i < s.nodes().size(); i++) {
            long id = s.nodes().get(i).nodeId();
            if (id != i) {
                throw ScenarioException.invalidNodeId(id, "nodes must be sequentially numbered; expected " + i + ", got "
                        + Long.toUnsignedString(id));
            }
        }
        for (ScenarioEvent e : s.events()) {
            long node;
            if (e.action() instanceof ScenarioAction.Crash c) node = c.nodeId();
            else if (e.action() instanceof ScenarioAction.Start st) node = st.nodeId();
            else continue;
            if (Long.compareUnsigned(node, count) >= 0) {
                throw ScenarioException.invalidNodeId(node, "event references node " + Long.toUnsignedString(node)
                        + ", but only " + count + " nodes exist");
            }
        }
        if (s.filesystem() != null) {
            for (Map.Entry<Long, FilesystemFaults> entry : s.filesystem().entrySet()) {
                long k = entry.getKey();
                if (Long.compareUnsigned(k, count) >= 0) {
                    throw ScenarioException.invalidNodeId(k, "filesystem faults for node " + Long.toUnsignedString(k)
                            + ", but only " + count + " nodes exist");
                }
            }
        }
        if (s.timeSkew() != null) {
            for (long k : s.timeSkew().keySet()) {
                if (Long.compareUnsigned(k, count) >= 0) {
                    throw ScenarioException.invalidNodeId(k, "time skew for node " + Long.toUnsignedString(k)
                            + ", but only " + count + " nodes exist");
                }
            }
        }
    }
}
