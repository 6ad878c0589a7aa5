package dev.weft.log;

/** What the broker core did with a send (weft-log-v2.md §5, tag member {@code kind}). */
public sealed interface SendOutcome {

    String kind();

    SendOutcome DROPPED = new Dropped();
    SendOutcome NO_RECEIVER = new NoReceiver();

    record Dropped() implements SendOutcome {
        public String kind() { return "dropped"; }
    }

    record NoReceiver() implements SendOutcome {
        public String kind() { return "no_receiver"; }
    }

    record Enqueued(long toConn, long delivNs, long tie) implements SendOutcome {
        public String kind() { return "enqueued"; }
    }
}
