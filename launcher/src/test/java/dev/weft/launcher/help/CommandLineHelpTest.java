package dev.weft.launcher.help;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.WeftCli;
import dev.weft.launcher.WeftCommand;
import dev.weft.testsupport.CapturedRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every command answers -h/--help with its usage and exit 0, and the completion scripts list every command. */
class CommandLineHelpTest {

    private static CapturedRun weft(String... args) {
        return CapturedRun.of((o, e) -> WeftCli.run(args, o, e));
    }

    /** Every command word, plus the two-word forms of check and trace. */
    private static List<String[]> everyCommand() {
        List<String[]> all = new ArrayList<>();
        for (WeftCommand c : WeftCommand.values()) {
            all.add(new String[] {c.word()});
            for (String sub : c.subwords()) {
                if (!c.word().equals("completion")) {
                    all.add(new String[] {c.word(), sub});
                }
            }
        }
        return all;
    }

    @Test
    void everyCommandAnswersHelpWithItsUsageAndExitZero() {
        for (String[] command : everyCommand()) {
            for (String flag : List.of("-h", "--help")) {
                String[] args = Arrays.copyOf(command, command.length + 1);
                args[command.length] = flag;
                CapturedRun r = weft(args);
                String what = String.join(" ", args);
                assertEquals(0, r.code(), what + " exit code; stderr: " + r.err());
                assertEquals("", r.err(), what + " wrote to stderr");
                String first = r.out().lines().findFirst().orElse("");
                assertTrue(first.toLowerCase().startsWith("usage: weft "), what + " first line: " + first);
                String self = "weft " + String.join(" ", command);
                assertTrue(r.out().contains(self + " ") || r.out().contains(self + "\n"), what + " names itself: " + r.out());
            }
        }
    }

    @Test
    void helpCommandAndTopLevelHelpListEveryCommand() {
        CapturedRun top = weft("--help");
        assertEquals(0, top.code());
        for (WeftCommand c : WeftCommand.values()) {
            assertTrue(top.out().contains("\n  " + c.word() + " "), "top-level help lists " + c.word());
            CapturedRun one = weft("help", c.word());
            assertEquals(0, one.code());
            assertEquals(c.usage(), one.out());
        }
        assertEquals(top.out(), weft().out());
        assertEquals(top.out(), weft("help").out());
    }

    @Test
    void runHelpIsOnlyTheLaunchersWhenItComesBeforeTheProgram() {
        // After the program (or --) a -h belongs to the program: with a missing shim/program the run fails,
        // it must not print weft's help.
        CapturedRun r = weft("run", "--seed", "1", "--shim", "/nonexistent/libweft_shim.so", "--", "grep", "-h");
        assertTrue(r.code() != 0 && !r.out().startsWith("Usage"), "run ... -- grep -h is not help: " + r);
        CapturedRun help = weft("run", "--seed", "1", "-h");
        assertEquals(0, help.code());
        assertTrue(help.out().startsWith("Usage: weft run"));
    }

    @Test
    void runExplainsItNeedsLinuxElsewhere() {
        String os = System.getProperty("os.name");
        try {
            System.setProperty("os.name", "Mac OS X");
            CapturedRun r = weft("run", "--seed", "1", "--", "true");
            assertEquals(2, r.code());
            assertTrue(r.err().startsWith("weft run: runs programs under an LD_PRELOAD shim for Linux x86-64 (glibc); this is Mac OS X"),
                    r.err());
            assertTrue(r.err().contains("weft replay"), "names what works there: " + r.err());
        } finally {
            System.setProperty("os.name", os);
        }
    }

    @Test
    void versionPrintsTheReferenceLineThenOursWithTheLogFormat() {
        CapturedRun r = weft("--version");
        assertEquals(0, r.code());
        List<String> lines = r.out().lines().toList();
        assertEquals("weft 0.0.2", lines.get(0)); // core-and-replay.md §5: scripts compare this line
        assertTrue(lines.get(1).startsWith("Weft Workbench ") && lines.get(1).contains("weft-log format v2"), lines.get(1));
        assertEquals(r.out(), weft("-V").out());
    }

    @Test
    void unknownCommandKeepsTheReferenceText() {
        CapturedRun r = weft("frobnicate");
        assertEquals(1, r.code());
        assertTrue(r.err().startsWith("weft: unknown command 'frobnicate'\nUsage: weft"), r.err());
    }

    @Test
    void zshCompletionNamesEveryCommandAndOption() {
        String zsh = CompletionScript.zsh();
        assertTrue(zsh.startsWith("#compdef weft\n"));
        for (WeftCommand c : WeftCommand.values()) {
            assertTrue(zsh.contains("\n    '" + c.word() + ":"), "zsh describes " + c.word());
            assertTrue(zsh.contains("\n    " + c.word() + ") opts=(" + String.join(" ", CompletionScript.options(c)) + ")"),
                    "zsh options of " + c.word());
        }
    }

    @Test
    void optionsComeFromTheHelpText() {
        List<String> replay = CompletionScript.options(WeftCommand.REPLAY);
        assertTrue(replay.containsAll(List.of("--until", "--check", "-h", "--help")), replay.toString());
        assertTrue(replay.stream().allMatch(o -> WeftCommand.REPLAY.usage().contains(o)), "only documented options");
        assertTrue(CompletionScript.options(WeftCommand.RUN).containsAll(List.of("--seed", "--strategy", "--host-pids")));
    }

    /** Runs the generated bash completion in a real bash and returns its candidates for the given words. */
    private static List<String> complete(Path script, String... words) throws IOException, InterruptedException {
        StringBuilder array = new StringBuilder("weft");
        for (String w : words) {
            array.append(" '").append(w).append('\'');
        }
        String program = "source '" + script + "'; COMP_WORDS=(" + array + "); COMP_CWORD=" + words.length
                + "; _weft; printf '%s\\n' \"${COMPREPLY[@]}\"";
        Process p = new ProcessBuilder("bash", "--norc", "-c", program).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> !l.isEmpty()).toList();
    }

    @Test
    void bashCompletionCompletesEveryCommandItsOptionsAndCheckValues(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "no bash here");
        Path script = dir.resolve("weft.bash");
        Files.writeString(script, CompletionScript.bash());
        List<String> words = complete(script, "");
        for (WeftCommand c : WeftCommand.values()) {
            assertTrue(words.contains(c.word()), "bash completes " + c.word() + ": " + words);
            assertEquals(CompletionScript.options(c), complete(script, c.word(), "-"), "options of " + c.word());
        }
        assertEquals(List.of("replay"), complete(script, "rep"));
        assertEquals(List.of("chord", "raft", "history"), complete(script, "check", ""));
        assertEquals(List.of("fifo"), complete(script, "replay", "x.weftlog", "--check", "fi"));
    }
}
