package dev.weft.launcher.campaign;

import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The verdict of one finished run, stored as {@code runs/<cell>/s<seed>.result} (written atomically, so a run is
 * either done or not done: this file is what a resumed campaign and {@code merge} read).
 *
 * @param verdict  OK, VIOLATION, DISCARD, ERROR or DEADLOCK (the broker's deadlock verdict)
 * @param identity what the checker reported first (the dedup key of a violation); a short reason for ERROR
 * @param kept     whether the recording was kept next to the result
 */
public record RunResult(String verdict, String identity, boolean kept) {
    public static final String SUFFIX = ".result";

    /** Whether the run found something: a checker VIOLATION or the broker's DEADLOCK verdict. */
    public boolean isFinding() {
        return verdict.equals("VIOLATION") || verdict.equals("DEADLOCK");
    }

    /** The bucket a finding falls in: its verdict and its class (the first report with numbers masked). */
    public String bucket() {
        return verdict + " " + CampaignReport.dedupClass(identity);
    }

    byte[] bytes() {
        return ("verdict " + verdict + "\nkept " + (kept ? 1 : 0) + "\nidentity " + identity.replace('\n', ' ')
                + "\n").getBytes(StandardCharsets.UTF_8);
    }

    void write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        AtomicFile.write(file, bytes());
    }

    /** The result at {@code file}, or null when the run has not finished (no file). */
    public static RunResult read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        String[] lines = Files.readString(file, StandardCharsets.UTF_8).split("\n", -1);
        if (lines.length < 3 || !lines[0].startsWith("verdict ") || !lines[1].startsWith("kept ")
                || !lines[2].startsWith("identity ")) {
            throw new IOException(file + ": not a campaign run result");
        }
        return new RunResult(lines[0].substring(8), lines[2].substring(9), lines[1].equals("kept 1"));
    }
}
