package dev.weft.launcher.shrink;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the lines of a written report.txt back (closing lines, the campaign's summary of its hits). */
final class ShrinkSummary {
    private ShrinkSummary() {
    }

    /** The value of the report's first {@code key:} line, or null when the report or the line is missing. */
    static String value(Path report, String key) {
        try {
            for (String line : Files.readAllLines(report, StandardCharsets.UTF_8)) {
                if (line.startsWith(key + ": ")) {
                    return line.substring(key.length() + 2);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }

    /** {@code D deviation(s) of N}, or {@code no plan}. */
    static String planLine(Path report) {
        String p = value(report, "plan");
        return p == null ? "no plan" : p;
    }

    static String result(Path report) {
        String r = value(report, "result");
        return r == null ? "no report" : r;
    }
}
