package dev.weft.launcher.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** One captured invocation of the fuzz command. */
record CommandRun(int exit, String out, String err) {

    static CommandRun of(Path workDir, String... args) {
        dev.weft.testsupport.CapturedRun r = dev.weft.testsupport.CapturedRun.of((o, e) -> FuzzCommand.run(args, o, e, workDir));
        return new CommandRun(r.code(), r.out(), r.err());
    }

    static Path sharedDir() {
        return dev.weft.testcorpus.SharedCorpus.sharedDir();
    }

    static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void write(Path p, String text) {
        try {
            Files.writeString(p, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Replaces the duration on the report's "swept" line by a fixed token. */
    static String withoutDuration(String report) {
        return report.replaceFirst("(swept     : \\d+ seed\\(s\\) in )\\d+(?:ms|\\.\\ds)", "$1<took>");
    }

    /** The fenced code blocks of fuzz.md §11, in order (stdout, then the first reproducer). */
    static java.util.List<String> vector11Blocks() {
        String spec = dev.weft.testcorpus.SpecPages.read("fuzz.md");
        String section = spec.substring(spec.indexOf("## 11."));
        java.util.List<String> blocks = new java.util.ArrayList<>();
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
}
