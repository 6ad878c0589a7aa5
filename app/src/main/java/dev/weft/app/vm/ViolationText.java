package dev.weft.app.vm;

import dev.weft.app.source.ViolationInfo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A plain-English line for a violation, from its invariant and message (invariants-and-checkers.md §2). */
public final class ViolationText {

    private ViolationText() { }

    private static final Pattern FIFO = Pattern.compile(
            "channel (\\S+) → (\\S+): datagram with send order (\\d+) delivered after send order (\\d+) \\(reordered\\)");
    private static final Pattern DUP = Pattern.compile("datagram tie=(\\d+) delivered twice \\(first at op (\\d+)\\)");

    public static String plainEnglish(ViolationInfo v) {
        Matcher m = FIFO.matcher(v.message());
        if (m.matches()) {
            return m.group(2) + " received datagram #" + m.group(3) + " from " + m.group(1) + " after it had already received #"
                    + m.group(4) + ": the network reordered them, and the receiver saw them out of order at op " + v.op() + ".";
        }
        m = DUP.matcher(v.message());
        if (m.matches()) {
            return "The same datagram (tie " + m.group(1) + ") was delivered a second time at op " + v.op()
                    + "; it was first delivered at op " + m.group(2) + ".";
        }
        return v.invariant() + " broke at op " + v.op() + ": " + v.message();
    }
}
