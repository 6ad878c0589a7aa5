package dev.weft.protocol;

import dev.weft.log.LogRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * A third protocol that exists only in the engine's tests, registered through the seam like the real ones
 * (src/test/resources/META-INF/services): its reports carry the date 777, and a report with a negative node is a
 * violation of "ToyNonNegative" at that report's op.
 */
public final class ToyProtocol implements Protocol {

    static final String INVARIANT = "ToyNonNegative";

    @Override public String name() { return "toy"; }
    @Override public int shapeRank() { return 0; }
    @Override public String findingsLabel() { return "Toy"; }
    @Override public List<String> invariants() { return List.of(INVARIANT); }
    @Override public boolean fits(int[] report) { return report[1] == 777; }
    @Override public boolean judgesEnd() { return false; }
    @Override public String checkCommand(String log) { return "weft check toy " + log; }
    @Override public String campaignCheckerExample() { return "\"toy\""; }
    @Override public String campaignCheckerHelp() { return "\"toy\""; }

    @Override
    public String plainWords(String invariant, long op, String message) {
        return invariant.equals(INVARIANT) ? "A toy node went negative at op " + op + "." : null;
    }

    @Override
    public List<String> campaignCheck(String checker, String log) {
        return checker.equals("toy") ? List.of("check", "toy", log) : null;
    }

    @Override
    public ProtocolRun newRun() {
        List<PlacedViolation> found = new ArrayList<>();
        return new ProtocolRun() {
            @Override
            public void accept(LogRecord r) {
                int[] f = StateReportPayload.ofSend(r);
                if (f != null && f[1] == 777 && f[0] < 0) found.add(new PlacedViolation(INVARIANT, r.op(), "node " + f[0]));
            }

            @Override
            public ProtocolResult result() {
                return new ProtocolResult(ToyProtocol.this, found.isEmpty() ? "OK" : "VIOLATION", found.isEmpty() ? 0 : 2,
                        found, List.of(), null);
            }
        };
    }
}
