package dev.weft.vm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The files of a run directory and the outcome digest that sums a run up. */
public final class RunFiles {

    public static final String MANIFEST = "manifest.json";
    public static final String CHOICE_PLAN = "choice-plan.json";
    public static final String RR_LOG = "replay.rr";
    public static final String CONSOLE = "console.log";
    public static final String EVENTS = "events.jsonl";
    public static final String ASSERTIONS = "assertions.json";
    public static final String OUTCOME = "outcome.digest";
    /** Where {@code weft vm replay} writes what its replay produced, for comparison by hand. */
    public static final String LAST_REPLAY = "last-replay";

    /** Every artifact the manifest digests (all but itself), in the order it lists them. */
    public static final List<String> ARTIFACTS = List.of(CHOICE_PLAN, RR_LOG, CONSOLE, EVENTS, ASSERTIONS, OUTCOME);

    private RunFiles() {
    }

    /** What a run produced from its console, ready to write or compare. */
    public record Outcome(byte[] console, List<ObjectNode> events, byte[] eventsJsonl, byte[] assertionsJson,
            boolean passed, int assertionCount, int assertionsHolding, long finalIcount, String digestLine) {
    }

    /**
     * The outcome digest: SHA-256 over how the machine ended, events.jsonl and assertions.json. The final
     * instruction count is left out: in record mode QEMU runs on for a few thousand instructions between the
     * guest's power-off request and the stop (host timing), while a replay stops exactly at the recorded request,
     * so the two counts differ by design (docs/simferret-evidence.md).
     */
    public static String outcomeDigest(String ending, byte[] events, byte[] assertions) {
        byte[] head = ("simferret-outcome/1\nending " + ending + "\nevents.jsonl\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] mid = "assertions.json\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + events.length + mid.length + assertions.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(events, 0, all, head.length, events.length);
        System.arraycopy(mid, 0, all, head.length + events.length, mid.length);
        System.arraycopy(assertions, 0, all, head.length + events.length + mid.length, assertions.length);
        return "sha256:" + Digests.sha256(all) + "\n";
    }

    /** Writes the outcome's files (console, events, assertions, digest) into dir. */
    public static void write(Path dir, Outcome o) throws IOException {
        Files.write(dir.resolve(CONSOLE), o.console());
        Files.write(dir.resolve(EVENTS), o.eventsJsonl());
        Files.write(dir.resolve(ASSERTIONS), o.assertionsJson());
        Files.writeString(dir.resolve(OUTCOME), o.digestLine(), StandardCharsets.UTF_8);
    }
}
