package dev.weft.fuzz;

import dev.weft.io.AtomicFile;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/** The {@code --regressions} file of fuzz.md §9: a JSON array of u64 seeds. */
public final class RegressionFile {

    private RegressionFile() {
    }

    /** Largest regression file read (ours). */
    static final int MAX_FILE_BYTES = 32 << 20;

    /**
     * The seeds in the file, in file order (duplicates kept); empty if the file does not exist. The
     * exception text follows {@code weft fuzz: }.
     */
    public static List<Long> read(Path file, String shownPath) throws FuzzConfigException {
        byte[] bytes;
        try {
            // 20 bytes a seed: a million regression seeds fit; /dev/zero or a wrong huge file is refused in a line
            bytes = dev.weft.io.BoundedFiles.read(file, MAX_FILE_BYTES);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (dev.weft.io.BoundedFiles.TooLargeException e) {
            throw new FuzzConfigException("--regressions " + shownPath + ": " + e.getMessage()
                    + "; a regression file is at most that");
        } catch (IOException e) {
            throw new FuzzConfigException("--regressions " + shownPath + ": " + OsErrorText.of(e));
        }
        try {
            StrictJson json = StrictJson.over(bytes);
            json.nextValue();
            List<Long> seeds = json.u64Array();
            json.expectEnd();
            return seeds;
        } catch (StrictJson.Problem p) {
            throw new FuzzConfigException("--regressions " + shownPath + ": " + p.getMessage());
        }
    }

    /** The seeds to write: sorted (unsigned), de-duplicated union of every key's seeds and the queued regression seeds. */
    public static SortedSet<Long> union(FuzzOutcome outcome) {
        SortedSet<Long> all = new TreeSet<>(Long::compareUnsigned);
        for (FuzzOutcome.Found f : outcome.found()) all.addAll(f.finding().seeds());
        all.addAll(outcome.config().regressionSeeds());
        return all;
    }

    /** {@code [}, one seed per line indented by two spaces, commas between, {@code ]}, no trailing newline. */
    public static String format(Collection<Long> seeds) {
        StringBuilder sb = new StringBuilder("[\n");
        List<Long> list = new ArrayList<>(seeds);
        for (int i = 0; i < list.size(); i++) {
            sb.append("  ").append(Long.toUnsignedString(list.get(i)));
            sb.append(i + 1 < list.size() ? ",\n" : "\n");
        }
        return sb.append(']').toString();
    }

    /**
     * The same array on one line, {@code [1, 3, 5]} and a newline: the layout of a campaign's
     * {@code regressions/<cell>.json}, which {@code weft fuzz --regressions} reads like any other.
     */
    public static String oneLine(Collection<Long> seeds) {
        StringBuilder sb = new StringBuilder("[");
        for (Long seed : seeds) {
            sb.append(sb.length() == 1 ? "" : ", ").append(Long.toUnsignedString(seed));
        }
        return sb.append("]\n").toString();
    }

    /** Replaces the file atomically: a run killed while writing leaves the previous seeds, never half a list. */
    public static void write(Path file, Collection<Long> seeds) throws IOException {
        AtomicFile.write(file, format(seeds).getBytes(StandardCharsets.UTF_8));
    }

}
