package dev.weft.log;

/**
 * What the broker core did with a send (weft-log-v2.md §5, tag member {@code kind}). Written-out equals/hashCode:
 * see {@link Event}.
 */
public sealed interface SendOutcome {

    String kind();

    SendOutcome DROPPED = new Dropped();
    SendOutcome NO_RECEIVER = new NoReceiver();

    // As in Event: the records without components have trivial members, written one to a line.

    record Dropped() implements SendOutcome {
        public String kind() { return "dropped"; }
        @Override public boolean equals(Object other) { return other instanceof Dropped; }
        @Override public int hashCode() { return 0; }
    }

    record NoReceiver() implements SendOutcome {
        public String kind() { return "no_receiver"; }
        @Override public boolean equals(Object other) { return other instanceof NoReceiver; }
        @Override public int hashCode() { return 0; }
    }

    record Enqueued(long toConn, long delivNs, long tie) implements SendOutcome {
        public String kind() { return "enqueued"; }

        @Override
        public boolean equals(Object other) {
            return other instanceof Enqueued o && toConn == o.toConn && delivNs == o.delivNs && tie == o.tie;
        }

        @Override
        public int hashCode() {
            return RecordHash.of(Long.hashCode(toConn), Long.hashCode(delivNs), Long.hashCode(tie));
        }
    }
}
