package dev.weft.history;

/** Operations in plain words, for findings and reports: {@code write 3}, {@code read → 2}, times in ns. */
public final class HistoryText {

    private HistoryText() {
    }

    /** What the operation did: {@code write 3}, {@code read → 2}, {@code cas 1 → 2}, {@code append 4}. */
    public static String what(Operation op) {
        return switch (op.f()) {
            case READ -> op.indeterminate() ? "read (result unknown)" : "read → " + op.output().text();
            case CAS -> "cas " + op.input().elements().get(0) + " → " + op.input().elements().get(1);
            default -> op.f().word() + " " + op.input().text();
        };
    }

    /** The object's name in a sentence: {@code key "x"} or {@code the object}. */
    public static String object(String key) {
        return key == null ? "the object" : "key " + key;
    }

    public static String time(long ns) {
        return "t=" + ns + " ns";
    }

    /**
     * One operation as a report line: who, what, when and where in the file:
     * {@code process 0  write 3  invoked t=1200 ns, acknowledged t=1500 ns  (lines 3–7)}.
     */
    public static String line(Operation op) {
        String when = "invoked " + time(op.invokeTime()) + ", ";
        if (op.indeterminate()) {
            when += "outcome unknown (" + (op.completeLine() > 0 ? "info" : "never completed") + ")";
        } else {
            when += (op.f() == OpFunction.READ ? "returned " : "acknowledged ") + time(op.completeTime());
        }
        String lines = op.completeLine() > 0 ? "lines " + op.invokeLine() + "–" + op.completeLine()
                : "line " + op.invokeLine();
        return op.client() + "  " + what(op) + "  " + when + "  (" + lines + ")";
    }
}
