package dev.weft.findings;

import dev.weft.protocol.Protocol;
import dev.weft.protocol.Protocols;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A finding in plain words, from its invariant and the checker's message (docs/workbench.md "What is on screen"):
 * what happened, to whom, and at which op. The same words in the workbench's violation bar and in
 * {@code weft explain}. A protocol's own violations are worded by the protocol ({@link Protocol#plainWords}).
 */
public final class FindingWords {

    private FindingWords() { }

    private static final Pattern FIFO = Pattern.compile(
            "channel (\\S+) → (\\S+): datagram with send order (\\d+) delivered after send order (\\d+) \\(reordered\\)");
    private static final Pattern DUP = Pattern.compile("datagram tie=(\\d+) delivered twice \\(first at op (\\d+)\\)");

    public static String plain(Finding f) {
        return plain(f.invariant(), f.op(), f.message());
    }

    /** The plain words for a violation of invariant at op with the checker's message. */
    public static String plain(String invariant, long op, String message) {
        Matcher m = FIFO.matcher(message);
        if (m.matches()) {
            return m.group(2) + " received datagram #" + m.group(3) + " from " + m.group(1) + " after it had already received #"
                    + m.group(4) + ": the network reordered them, and the receiver saw them out of order at op " + op + ".";
        }
        m = DUP.matcher(message);
        if (m.matches()) {
            return "The same datagram (tie " + m.group(1) + ") was delivered a second time at op " + op
                    + "; it was first delivered at op " + m.group(2) + ".";
        }
        for (Protocol p : Protocols.all()) {
            String words = p.plainWords(invariant, op, message);
            if (words != null) return words;
        }
        FindingKind kind = FindingKind.of(invariant);
        if (kind == FindingKind.DEADLOCK) {
            return "Deadlock at op " + op + ": every live node waits and nothing is in flight or scheduled"
                    + (message.isEmpty() ? "." : ": " + message);
        }
        if (kind == FindingKind.HISTORY) {
            // the history checker's headline already says what and when ("add 84 acknowledged at t=…, then a read …")
            return "The clients' history breaks the " + invariant.substring(invariant.indexOf(':') + 1)
                    + " model, seen at op " + op + (message.isEmpty() ? "." : ": " + message.replaceFirst("^the object: ", ""));
        }
        if (kind == FindingKind.STREAM) {
            return "A stream delivered bytes that were not written, out of order or twice, at op " + op
                    + (message.isEmpty() ? "." : ": " + message);
        }
        return invariant + " broke at op " + op + (message.isEmpty() ? "." : ": " + message);
    }
}
