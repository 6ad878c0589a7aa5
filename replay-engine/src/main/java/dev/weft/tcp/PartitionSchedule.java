package dev.weft.tcp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which nodes are cut from which over virtual time: the net spec's partition (for the whole run) and the scenario's
 * changes, each in force from its instant until the next (a later change at the same instant wins). Nodes listed in
 * no group of a partition form one more group together (the fault model's rule).
 */
final class PartitionSchedule {

    /** A partition in force from atNs on: node id to group index; null = healed. */
    private record Change(long atNs, Map<Long, Integer> groups) {
    }

    private final Map<Long, Integer> permanent;
    /** Ascending by atNs (unsigned); equal instants in the order they were added. */
    private final List<Change> changes;

    PartitionSchedule(List<List<Long>> permanentGroups) {
        permanent = groupsOf(permanentGroups);
        changes = new ArrayList<>();
    }

    private PartitionSchedule(PartitionSchedule o) {
        permanent = o.permanent; // immutable after construction
        changes = new ArrayList<>(o.changes); // entries immutable
    }

    PartitionSchedule copy() {
        return new PartitionSchedule(this);
    }

    /** From atNs on, groups (empty: healed) replace the scenario partition in force. */
    void add(long atNs, List<List<Long>> groups) {
        int i = changes.size();
        while (i > 0 && Long.compareUnsigned(changes.get(i - 1).atNs(), atNs) > 0) i--;
        changes.add(i, new Change(atNs, groupsOf(groups)));
    }

    /** Whether nodes a and b are cut from each other at instant t. */
    boolean cut(long a, long b, long t) {
        return separates(permanent, a, b) || separates(scenarioAt(t), a, b);
    }

    /**
     * The first instant after t at which a and b are no longer cut, as far as the changes known so far say;
     * {@link Flow#NEVER} when none is known yet (or the net spec's partition cuts them for good).
     */
    long healAfter(long a, long b, long t) {
        if (separates(permanent, a, b)) return Flow.NEVER;
        for (int i = 0; i < changes.size(); i++) {
            Change c = changes.get(i);
            if (Long.compareUnsigned(c.atNs(), t) <= 0) continue;
            // later changes at the same instant win: look at the last one of this instant
            while (i + 1 < changes.size() && changes.get(i + 1).atNs() == c.atNs()) c = changes.get(++i);
            if (!separates(c.groups(), a, b)) return c.atNs();
        }
        return Flow.NEVER;
    }

    private Map<Long, Integer> scenarioAt(long t) {
        Map<Long, Integer> in = null;
        for (Change c : changes) {
            if (Long.compareUnsigned(c.atNs(), t) > 0) break;
            in = c.groups();
        }
        return in;
    }

    private static boolean separates(Map<Long, Integer> groups, long a, long b) {
        if (groups == null || groups.isEmpty()) return false;
        return groups.getOrDefault(a, -1).intValue() != groups.getOrDefault(b, -1).intValue();
    }

    private static Map<Long, Integer> groupsOf(List<List<Long>> groups) {
        if (groups.isEmpty()) return null;
        Map<Long, Integer> m = new HashMap<>();
        for (int g = 0; g < groups.size(); g++) {
            for (Long node : groups.get(g)) m.putIfAbsent(node, g);
        }
        return Map.copyOf(m);
    }
}
