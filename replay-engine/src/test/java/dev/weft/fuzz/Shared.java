package dev.weft.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The fuzz vectors of docs/spec/fuzz.md, and the reference corpus's fuzz cases when it is present. */
final class Shared {

    private Shared() {
    }

    static Path dir() {
        return dev.weft.testcorpus.SharedCorpus.sharedDir();
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
        String spec = dev.weft.testcorpus.SpecPages.read("fuzz.md");
        String section = spec.substring(spec.indexOf("## 11."));
        // Every fence in §11 is a bare ``` line: the blocks are the odd pieces between fences, without their first newline.
        String[] pieces = section.split("```", -1);
        List<String> blocks = new ArrayList<>();
        for (int i = 1; i + 1 < pieces.length; i += 2) blocks.add(pieces[i].substring(1));
        return blocks;
    }

    /** Replaces the duration on the report's "swept" line by a fixed token. */
    static String withoutDuration(String report) {
        return report.replaceFirst("(swept     : \\d+ seed\\(s\\) in )\\d+(?:ms|\\.\\ds)", "$1<took>");
    }
}
