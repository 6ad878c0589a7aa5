package dev.weft.launcher.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.weft.cli.CommandArgs;
import dev.weft.launcher.WeftCli;
import dev.weft.launcher.run.RunCommand;
import dev.weft.launcher.run.RunHelp;
import dev.weft.testsupport.CapturedRun;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The usage errors of the subcommands parsed by {@link CommandArgs}: exit code and the first line on stderr, word for
 * word as the hand-written parsers printed them before picocli (docs/cli.md lists the exit codes; scripts and the
 * spec's examples match these lines). Each line is one sentence without a stack trace.
 */
class UsageErrorsTest {

    private static void pinned(int code, String firstLine, String... args) {
        pinned(CapturedRun.of((o, e) -> WeftCli.run(args, o, e)), code, firstLine, args);
    }

    /** weft run writes to the process's stderr when started by WeftCli: called here with captured streams. */
    private static void pinnedRun(int code, String firstLine, String... args) {
        pinned(CapturedRun.of((o, e) -> RunCommand.run(args, Map.of(), o, e)), code, firstLine, args);
    }

    private static void pinned(CapturedRun r, int code, String firstLine, String... args) {
        String what = String.join(" ", args);
        assertEquals(code, r.code(), what + ": " + r.err());
        assertEquals(firstLine, r.err().lines().findFirst().orElse(""), what);
        assertFalse(r.err().contains("\tat "), what + " printed a stack trace");
        assertEquals("", r.out(), what + " wrote to stdout");
    }

    @Test
    void diff() {
        pinned(1, "weft diff: two recordings are needed", "diff", "a.weftlog");
        pinned(1, "weft diff: --by requires op or vt", "diff", "a", "b", "--by");
        pinned(1, "weft diff: --by \"xx\": expected op or vt", "diff", "--by", "xx", "a", "b");
        pinned(1, "weft diff: --by \"xx\": expected op or vt", "diff", "--by=xx", "a", "b");
        pinned(1, "weft diff: unknown option \"--frob\"", "diff", "--frob", "a", "b");
        pinned(1, "weft diff: unexpected argument \"c\"", "diff", "a", "b", "c");
        // a lone "-" and an @-word are file names, not options or argument files
        pinned(1, "weft diff: -: No such file or directory (os error 2)", "diff", "-", "b");
        pinned(1, "weft diff: @args: No such file or directory (os error 2)", "diff", "@args", "b");
    }

    @Test
    void explain() {
        pinned(1, "weft explain: a recording is needed", "explain");
        pinned(1, "weft explain: a recording is needed", "explain", "--json");
        pinned(1, "weft explain: unknown option \"--frob\"", "explain", "--frob", "a");
        pinned(1, "weft explain: unexpected argument \"b\"", "explain", "a", "b");
        pinned(1, "weft explain: nope.weftlog: no such file", "explain", "nope.weftlog", "--json");
    }

    @Test
    void plan() {
        pinned(1, "weft plan: no log file given", "plan");
        pinned(1, "weft plan: unexpected argument \"b\"", "plan", "a", "b");
        pinned(1, "weft plan: unexpected argument \"--frob\"", "plan", "--frob");
        pinned(1, "weft plan: unexpected argument \"-\"", "plan", "-");
    }

    @Test
    void state() {
        pinned(1, "weft state: no log file given", "state", "--at", "1");
        pinned(1, "weft state: no --at op given", "state", "a.weftlog");
        pinned(1, "weft state: --at requires an op index", "state", "a.weftlog", "--at");
        pinned(1, "weft state: --at \"x\": not an op index", "state", "a.weftlog", "--at", "x");
        pinned(1, "weft state: unexpected argument \"b\"", "state", "a", "b", "--at", "1");
    }

    @Test
    void convert() {
        pinned(2, "weft convert: needs a recording and an output file", "convert", "a", "--to", "perfetto");
        pinned(2, "weft convert: say which format with --to perfetto", "convert", "a", "o.json");
        pinned(2, "weft convert: --to needs a format (perfetto)", "convert", "a", "o.json", "--to");
        pinned(2, "weft convert: unknown format \"pprof\" (supported: perfetto)", "convert", "a", "o.json", "--to=pprof");
        pinned(2, "weft convert: unknown option --frob", "convert", "--frob", "a", "o.json");
        pinned(2, "weft convert: unexpected argument \"c\"", "convert", "a", "b", "c", "--to", "perfetto");
    }

    @Test
    void scenario() {
        pinned(1, "weft scenario: expected exactly one scenario file", "scenario");
        pinned(1, "weft scenario: expected exactly one scenario file", "scenario", "a.json", "b.json");
        pinned(1, "weft scenario: nope.json: no such file", "scenario", "nope.json");
    }

    @Test
    void fuzzStopsAtTheFirstBadValueInCommandLineOrder() {
        pinned(1, "weft fuzz: --jobs \"x\": not a count", "fuzz", "--jobs", "x", "--seeds", "12");
        pinned(1, "weft fuzz: --seeds \"12\": expected START:COUNT", "fuzz", "--seeds", "12", "--jobs", "x");
        pinned(1, "weft fuzz: --max-output \"lots\": not a byte count", "fuzz", "--config", "c", "--max-output", "lots");
        pinned(1, "weft fuzz: --max-output \"9223372036854775808\": not a byte count", "fuzz", "--config", "c",
                "--max-output", "9223372036854775808");
        pinned(1, "weft fuzz: --shard wants k/N with 0 <= k < N, got \"x\"", "fuzz", "--config", "c", "--shard", "x");
        pinned(1, "weft fuzz: unexpected argument \"extra\"", "fuzz", "--config", "c", "extra");
    }

    @Test
    void fuzzMerge() {
        pinned(1, "weft fuzz merge: give the output folder and at least one shard folder", "fuzz", "merge");
        pinned(1, "weft fuzz merge: give the output folder and at least one shard folder", "fuzz", "merge", "a");
        pinned(1, "weft fuzz merge: --jobs requires a value", "fuzz", "merge", "a", "b", "--jobs");
        pinned(1, "weft fuzz merge: --jobs \"x\": not a count", "fuzz", "merge", "--jobs", "x", "a", "b");
        pinned(1, "weft fuzz merge: --max-output \"lots\": not a count", "fuzz", "merge", "a", "b", "--max-output",
                "lots");
        pinned(1, "weft fuzz merge: unexpected argument \"--frob\"", "fuzz", "merge", "--frob", "a", "b");
    }

    @Test
    void shrink() {
        pinned(1, "weft shrink: --config FILE, --seed N and --out DIR are required", "shrink");
        pinned(1, "weft shrink: --config needs a value", "shrink", "--config");
        pinned(1, "weft shrink: --seed wants a number from 0 to 2^64-1, got \"x\"", "shrink", "--seed", "x", "--jobs", "0");
        pinned(1, "weft shrink: --jobs wants a positive number, got \"0\"", "shrink", "--jobs", "0", "--seed", "x");
        pinned(1, "weft shrink: --cell wants K=V, each variable once, got \"A\"", "shrink", "--cell", "A");
        pinned(1, "weft shrink: --cell wants K=V, each variable once, got \"A=2\"", "shrink", "--cell", "A=1",
                "--cell", "A=2");
        pinned(1, "weft shrink: unknown argument \"--frob\"", "shrink", "--frob");
        pinned(1, "weft shrink: unknown argument \"extra\"", "shrink", "--seed", "1", "extra");
    }

    @Test
    void campaign() {
        pinned(1, "weft campaign: --config FILE is required", "campaign");
        pinned(1, "weft campaign: --config needs a value", "campaign", "--config");
        pinned(1, "weft campaign: unknown argument \"--frob\"", "campaign", "--frob");
        pinned(1, "weft campaign: unknown argument \"extra\"", "campaign", "--config", "c", "extra");
        pinned(1, "weft campaign: --jobs wants a positive number, got \"0\"", "campaign", "--jobs", "0");
        pinned(1, "weft campaign: --jobs wants a positive number, got \"x\"", "campaign", "--config", "c", "--jobs", "x");
        pinned(1, "weft campaign: --shard wants k/N with 0 <= k < N, got \"x\"", "campaign", "--config", "c",
                "--shard", "x");
        // --seeds is checked against the config, after it is read
        pinned(1, "weft campaign: nope.json: no such file", "campaign", "--config", "nope.json", "--seeds", "x");
        // parsed with picocli: --option=value as everywhere else
        pinned(1, "weft campaign: nope.json: no such file", "campaign", "--config=nope.json", "--jobs=2");
    }

    @Test
    void campaignFolderCommands() {
        pinned(1, "weft campaign compact: usage: weft campaign compact DIR [--keep N]", "campaign", "compact");
        pinned(1, "weft campaign compact: --keep wants a positive number, got \"0\"", "campaign", "compact",
                "--keep", "0", "d");
        pinned(1, "weft campaign compact: --keep needs a value", "campaign", "compact", "--keep");
        pinned(1, "weft campaign compact: unknown argument \"e\"", "campaign", "compact", "d", "e");
        pinned(1, "weft campaign compact: unknown argument \"--frob\"", "campaign", "compact", "--frob", "d");
        pinned(1, "weft campaign verify: usage: weft campaign verify DIR", "campaign", "verify");
        pinned(1, "weft campaign verify: usage: weft campaign verify DIR", "campaign", "verify", "a", "b");
        pinned(1, "weft campaign merge: usage: weft campaign merge OUT DIR...", "campaign", "merge", "a");
    }

    @Test
    void vm() {
        pinned(1, "weft vm: unknown operation 'frob'", "vm", "frob");
        pinned(1, "weft vm record: record needs --seed N", "vm", "record");
        pinned(1, "weft vm record: --seed needs a value", "vm", "record", "--seed");
        pinned(1, "weft vm record: --seed needs an unsigned 64-bit number (decimal or 0x-hex), got 'x'", "vm",
                "record", "--seed", "x");
        pinned(1, "weft vm record: unexpected argument '--frob'", "vm", "record", "--seed", "1", "--frob");
        pinned(1, "weft vm record: --stall-seconds needs seconds in (0, 3600], got '0'", "vm", "record", "--seed", "1",
                "--stall-seconds", "0");
        pinned(1, "weft vm record: --allow-mismatch and --extra-append are replay options", "vm", "record", "--seed",
                "1", "--allow-mismatch");
        pinned(1, "weft vm replay: replay needs the run directory", "vm", "replay");
        pinned(1, "weft vm replay: unexpected argument 'b'", "vm", "replay", "a", "b");
        pinned(1, "weft vm replay: replay takes its seed, scenario and files from the run directory", "vm", "replay",
                "d", "--seed", "1");
        // parsed with picocli: --option=value as everywhere else
        pinned(1, "weft vm record: --seed needs an unsigned 64-bit number (decimal or 0x-hex), got 'x'", "vm",
                "record", "--seed=x");
    }

    @Test
    void run() {
        Assumptions.assumeTrue(RunHelp.supportedHere(), "weft run runs on Linux x86-64 only");
        pinnedRun(2, "weft run: --seed is required");
        pinnedRun(2, "weft run: --seed needs a value", "--seed");
        pinnedRun(2, "weft run: --seed \"x\": invalid decimal seed", "--seed", "x", "--", "true");
        pinnedRun(2, "weft run: unknown option --frob", "--frob", "--", "true");
        pinnedRun(2, "weft run: no program given after --", "--seed", "1");
        pinnedRun(2, "weft run: --nodes 0: expected 1 to 1024", "--nodes", "0", "--seed", "1", "--", "true");
    }

    @Test
    void campaignShrinkSharesShrinksJobsCheck() {
        pinned(1, "weft campaign shrink: --jobs wants a positive number, got \"0\"", "campaign", "shrink", "--jobs", "0");
    }

    @Test
    void hostd() {
        Assumptions.assumeTrue(RunHelp.supportedHere(), "weft hostd runs on Linux x86-64 only");
        pinned(2, "weft hostd: unknown option --frob", "hostd", "--frob");
        pinned(2, "weft hostd: unknown option extra", "hostd", "extra");
        pinned(2, "weft hostd: --listen needs a value", "hostd", "--listen");
        pinned(2, "weft hostd: --listen \"x:y\": expected PORT or HOST:PORT", "hostd", "--listen", "x:y");
        pinned(2, "weft hostd: --listen \"99999\": expected PORT or HOST:PORT", "hostd", "--listen=99999");
    }

    @Test
    void checkHistory() {
        String models = "register|cas-register|kv|set|list-append";
        pinned(1, "usage: weft check history <history.jsonl> --model " + models, "check", "history");
        pinned(1, "weft check history: unknown option --frob", "check", "history", "h.jsonl", "--frob");
        pinned(1, "weft check history: one history at a time (also got b)", "check", "history", "a", "b", "--model", "kv");
        pinned(1, "weft check history: unknown option --model", "check", "history", "a", "--model");
        pinned(1, "weft check history: unknown model nope (one of " + models + ")", "check", "history", "a",
                "--model=nope");
    }

    @Test
    void completion() {
        pinned(1, "weft completion: expected 'bash' or 'zsh'", "completion");
        pinned(1, "weft completion: expected 'bash' or 'zsh'", "completion", "fish");
        pinned(1, "weft completion: expected 'bash' or 'zsh'", "completion", "bash", "zsh");
    }
}
