package dev.weft.app.shrink;

import dev.weft.text.ShellWords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the Shrink dialog's form says, as typed: turned into {@code weft shrink} arguments and checked field by field
 * (each problem is one line meant for its field). Nothing is started for a form with problems, and an output folder
 * that already holds a shrink's files is refused rather than overwritten.
 *
 * @param config the campaign config file
 * @param seed   the failing seed (decimal or 0x hex)
 * @param cells  the cell, {@code KEY=VALUE} words separated by blanks (may be empty)
 * @param jobs   parallel runs (empty: weft shrink's default)
 * @param out    the output folder
 */
public record ShrinkRequest(String config, String seed, String cells, String jobs, String out) {

    /** The form's fields, for naming where a problem is. */
    public enum Field { CONFIG, SEED, CELLS, JOBS, OUT }

    /** The files weft shrink writes into its output folder (docs/shrinking.md). */
    public static final List<String> OUTPUTS = List.of("plan.json", "minimal.weftlog", "report.txt");

    /** {@code shrink --config CFG --seed N [--cell K=V …] [--jobs J] --out DIR} (weft's own arguments). */
    public List<String> args() {
        List<String> a = new ArrayList<>(List.of("shrink", "--config", config.strip(), "--seed", seed.strip()));
        for (String cell : cellWords()) {
            a.add("--cell");
            a.add(cell);
        }
        if (!jobs.isBlank()) {
            a.add("--jobs");
            a.add(jobs.strip());
        }
        a.add("--out");
        a.add(out.strip());
        return a;
    }

    private List<String> cellWords() {
        return cells.isBlank() ? List.of() : List.of(cells.strip().split("\\s+"));
    }

    /** The minimal recording the shrink writes. */
    public Path minimalLog() {
        return Path.of(out.strip()).resolve("minimal.weftlog");
    }

    /** Each field's problem, in form order; empty when the form can run. */
    public Map<Field, String> problems() {
        Map<Field, String> p = new LinkedHashMap<>();
        if (config.isBlank()) p.put(Field.CONFIG, "a campaign config file is needed");
        else if (!Files.isRegularFile(Path.of(config.strip()))) p.put(Field.CONFIG, config.strip() + ": no such file");
        if (!seed.strip().matches("[0-9]{1,20}|0[xX][0-9a-fA-F]{1,16}")) {
            p.put(Field.SEED, "the seed is a number (decimal or 0x hex), e.g. 3");
        }
        for (String cell : cellWords()) {
            if (!cell.matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
                p.put(Field.CELLS, "\"" + cell + "\" is not KEY=VALUE");
                break;
            }
        }
        if (!jobs.isBlank() && !jobs.strip().matches("[1-9][0-9]{0,3}")) p.put(Field.JOBS, "jobs is a whole number from 1");
        if (out.isBlank()) {
            p.put(Field.OUT, "an output folder is needed");
        } else {
            Path dir = Path.of(out.strip());
            for (String name : OUTPUTS) {
                if (Files.exists(dir.resolve(name))) {
                    p.put(Field.OUT, dir.resolve(name) + " exists: choose a new folder (nothing is overwritten)");
                    break;
                }
            }
        }
        return p;
    }

    /** The equivalent shell command, for the dialog to show. */
    public String commandLine() {
        return "weft " + ShellWords.join(args());
    }
}
