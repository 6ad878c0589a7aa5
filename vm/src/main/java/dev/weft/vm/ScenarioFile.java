package dev.weft.vm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a scenario file: {@code key = value} lines ({@code #} starts a comment), keys from {@link Scenario#KEYS},
 * each at most once; keys left out keep {@link Scenario#DEFAULT}'s value. Errors name the file and line.
 */
public final class ScenarioFile {

    private ScenarioFile() {
    }

    /** A user mistake in a scenario file; the message names the file and line. */
    public static final class ScenarioException extends Exception {
        public ScenarioException(String message) {
            super(message);
        }
    }

    public static Scenario read(Path file) throws ScenarioException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ScenarioException(file + ": cannot read the scenario (" + e.getMessage() + ")");
        }
        int[] values = Scenario.DEFAULT.values();
        boolean[] seen = new boolean[values.length];
        for (int i = 0; i < lines.size(); i++) {
            String where = file + ":" + (i + 1) + ": ";
            String line = lines.get(i);
            int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                throw new ScenarioException(where + "expected 'key = value', got '" + line + "'");
            }
            String key = line.substring(0, eq).strip();
            String text = line.substring(eq + 1).strip();
            int k = Scenario.KEYS.indexOf(key);
            if (k < 0) {
                throw new ScenarioException(where + "unknown key '" + key + "' (known: " + String.join(", ", Scenario.KEYS) + ")");
            }
            if (seen[k]) {
                throw new ScenarioException(where + "'" + key + "' is given twice");
            }
            seen[k] = true;
            try {
                values[k] = Integer.parseInt(text);
            } catch (NumberFormatException e) {
                throw new ScenarioException(where + "'" + key + "' needs a whole number, got '" + text + "'");
            }
        }
        try {
            return Scenario.of(values);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(file + ": " + e.getMessage());
        }
    }
}
