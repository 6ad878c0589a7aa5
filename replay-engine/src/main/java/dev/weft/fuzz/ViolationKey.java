package dev.weft.fuzz;

import dev.weft.check.Violation;
import dev.weft.log.Event;
import dev.weft.log.RecvOutcome;
import java.util.Comparator;

/**
 * The identity of a violation for deduplication (fuzz.md §6): invariant name and subject
 * ({@code <src> → <dst>} of the violating datagram, empty for other events).
 */
public record ViolationKey(String invariant, String subject) implements Comparable<ViolationKey> {

    /** Orders keys by their display strings compared byte-wise in UTF-8 (= code point order). */
    public static final Comparator<ViolationKey> DISPLAY_ORDER = (a, b) -> compareCodePoints(a.display(), b.display());

    public static ViolationKey of(Violation v) {
        return of(v.invariant(), v.event());
    }

    public static ViolationKey of(String invariant, Event event) {
        String subject = "";
        if (event instanceof Event.Recv r && r.outcome() instanceof RecvOutcome.Delivered d) {
            subject = d.src().text() + " \u2192 " + d.dst().text();
        } else if (event instanceof Event.Send s) {
            subject = s.src().text() + " \u2192 " + s.dst().text();
        }
        return new ViolationKey(invariant, subject);
    }

    /** {@code <name> on <subject>}, or just the name when the subject is empty. */
    public String display() {
        return subject.isEmpty() ? invariant : invariant + " on " + subject;
    }

    @Override
    public int compareTo(ViolationKey o) {
        return DISPLAY_ORDER.compare(this, o);
    }

    @Override
    public String toString() {
        return display();
    }

    /** UTF-8 byte order equals Unicode code point order (UTF-16 unit order differs above the surrogates). */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) return Integer.compare(ca, cb);
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
