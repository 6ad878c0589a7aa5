package dev.weft.launcher.campaign;

import dev.weft.io.AtomicFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The live re-run of a windowed campaign's hits: a windowed run of one seed gives a byte-identical recording, so a
 * violation is <em>confirmed</em> when recording it again from its seed gives the same bytes (SHA-256) and the
 * checker the same first report (op numbers included); otherwise it is <em>not reproduced</em>, with what differed.
 *
 * <p>Which hits: in each folder, the first hit in plan order of each violation class among the runs it holds. The
 * report cites only a class's first hit overall, and that hit is also the first of its class in whichever shard ran
 * it — so every shard confirming its own first hits confirms exactly the hits a merged report cites, and a merged
 * report equals a single process's. The outcome is stored as {@code runs/<cell>/s<seed>.confirm} (atomically);
 * a resumed campaign confirms what is still missing.
 *
 * @param confirmed whether the re-run reproduced the hit
 * @param detail    how: the recording's digest, or what differed
 */
record Confirmation(boolean confirmed, String detail) {
    static final String SUFFIX = ".confirm";

    /** The text shown in the report: {@code confirmed} or {@code not reproduced}, then the detail. */
    String text() {
        return (confirmed ? "confirmed" : "not reproduced") + ": " + detail;
    }

    void write(Path file) throws IOException {
        AtomicFile.write(file, ("confirmed " + (confirmed ? 1 : 0) + "\ndetail " + detail.replace('\n', ' ') + "\n")
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The confirmation at {@code file}, or null when the hit has not been re-run (no file). */
    static Confirmation read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        String[] lines = Files.readString(file, StandardCharsets.UTF_8).split("\n", -1);
        if (lines.length < 2 || !lines[0].startsWith("confirmed ") || !lines[1].startsWith("detail ")) {
            throw new IOException(file + ": not a campaign confirmation");
        }
        return new Confirmation(lines[0].equals("confirmed 1"), lines[1].substring(7));
    }

    /**
     * Compares a hit with its re-run: the kept recording's digest with the re-run's (null when one is missing), the
     * checker's first report with the re-run's result.
     */
    static Confirmation compare(RunResult hit, String hitSha, RunResult rerun, String rerunSha) {
        if (!rerun.verdict().equals(hit.verdict()) || !rerun.identity().equals(hit.identity())) {
            return new Confirmation(false, "the re-run's verdict is " + rerun.verdict()
                    + (rerun.identity().isEmpty() ? "" : " (" + rerun.identity() + ")") + ", not " + hit.verdict()
                    + " (" + hit.identity() + ")");
        }
        if (hitSha == null) {
            return new Confirmation(true, "same verdict (the hit's recording was not kept, so its bytes were not"
                    + " compared)");
        }
        if (!hitSha.equals(rerunSha)) {
            return new Confirmation(false, "same verdict, but the re-run's recording differs (sha256 " + hitSha
                    + " then " + rerunSha + ")");
        }
        return new Confirmation(true, "byte-identical recording (sha256 " + hitSha + ") and the same verdict");
    }

    /** The hits to confirm in {@code outDir}: per class, the first hit in plan order that has a result there. */
    static List<PlannedRun> firstHits(List<PlannedRun> plan, Path outDir) throws IOException {
        Map<String, PlannedRun> first = new TreeMap<>();
        for (PlannedRun r : plan) {
            RunResult res = RunResult.read(outDir.resolve(r.stem() + RunResult.SUFFIX));
            if (res != null && res.verdict().equals("VIOLATION")) {
                first.putIfAbsent(CampaignReport.dedupClass(res.identity()), r);
            }
        }
        return List.copyOf(first.values());
    }

    /** SHA-256 of a file as hex, or null if it does not exist. */
    static String sha256(Path f) throws IOException {
        if (!Files.isRegularFile(f)) {
            return null;
        }
        try (InputStream in = Files.newInputStream(f)) {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int k = in.read(buf); k > 0; k = in.read(buf)) {
                md.update(buf, 0, k);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e); // every JDK has SHA-256
        }
    }
}
