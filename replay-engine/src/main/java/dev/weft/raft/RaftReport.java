package dev.weft.raft;

import dev.weft.protocol.StateReportPayload;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;

/**
 * One Raft node's state report (invariants-and-checkers.md §4): node id, date, alive (false marks a
 * crash-restart tick), term, role (0 follower, 1 candidate, 2 leader) and votedFor ({@code -1} = none).
 */
public record RaftReport(int node, int date, boolean alive, int term, int role, int votedFor) {

    public static final int FOLLOWER = 0;
    public static final int CANDIDATE = 1;
    public static final int LEADER = 2;

    /** Parses a hex payload (ASCII white space only); null when it is not a report. */
    public static RaftReport parse(String hexPayload) {
        int[] f = StateReportPayload.fields(hexPayload, StateReportPayload.ASCII_WHITE_SPACE);
        return f == null ? null : new RaftReport(f[0], f[1], f[2] != 0, f[3], f[4], f[5]);
    }

    /** The report carried by a {@code send} record (any outcome), or null. */
    public static RaftReport fromSend(LogRecord r) {
        return r.event() instanceof Event.Send s ? parse(s.payload()) : null;
    }

    public boolean isLeader() {
        return alive && role == LEADER;
    }

    /** {@code follower}, {@code candidate}, {@code leader}, or the number for anything else. */
    public String roleName() {
        return switch (role) {
            case FOLLOWER -> "follower";
            case CANDIDATE -> "candidate";
            case LEADER -> "leader";
            default -> Integer.toString(role);
        };
    }
}
