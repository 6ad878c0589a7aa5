package dev.weft.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Access to /work/shared (spec and conformance corpus) at test time. */
final class Shared {

    private Shared() {
    }

    static Path dir() {
        return dev.weft.log.Corpus.sharedDir();
    }

    static Path fuzzCorpus() {
        return dir().resolve("conformance").resolve("fuzz");
    }

    static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fenced code blocks of fuzz.md §11, in order (stdout, then the first reproducer). */
    static List<String> vector11Blocks() {
        String spec = read(dir().resolve("spec").resolve("fuzz.md"));
        String section = spec.substring(spec.indexOf("## 11."));
        List<String> blocks = new ArrayList<>();
        int at = 0;
        while (true) {
            int open = section.indexOf("```\n", at);
            if (open < 0) break;
            int close = section.indexOf("```", open + 4);
            blocks.add(section.substring(open + 4, close));
            at = close + 3;
        }
        return blocks;
    }

    /** Replaces the duration on the report's "swept" line by a fixed token. */
    static String withoutDuration(String report) {
        return report.replaceFirst("(swept     : \\d+ seed\\(s\\) in )\\d+(?:ms|\\.\\ds)", "$1<took>");
    }
}
