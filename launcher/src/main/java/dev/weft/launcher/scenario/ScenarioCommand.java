package dev.weft.launcher.scenario;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.launcher.cli.ToolUsage;
import dev.weft.scenario.Scenario;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import dev.weft.scenario.ScenarioException;
import dev.weft.scenario.Scenarios;
import dev.weft.text.RustText;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft scenario FILE}: parses and validates a scenario (scenario-dsl.md) and prints it in time order, so a
 * person sees the schedule exactly as the orchestrator would apply it. Exit 0 valid, 1 invalid or unreadable.
 */
public final class ScenarioCommand {

    public static final String USAGE = "Usage: weft scenario <FILE>\n\n"
            + "Validates a scenario JSON file (scenario DSL) and prints its nodes and time-ordered events.\n";

    private static final ToolUsage TOOL = new ToolUsage("scenario", USAGE);

    private ScenarioCommand() {
    }

    /** The picocli model of {@code weft scenario}: the scenario file and {@code -h/--help}. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("scenario")
                .addOption(CommandArgs.helpOption())
                .addPositional(CommandArgs.operands("<FILE>"));
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        ToolUsage.Parsed given = TOOL.parse(spec(), args, out, err, p -> p.kind() == ArgsProblem.Kind.UNKNOWN_OPTION
                ? "unknown option " + RustText.debugQuote(p.argument()) : "expected exactly one scenario file");
        if (given.answered()) {
            return given.exit();
        }
        ParseResult parsed = given.args();
        List<String> files = CommandArgs.operands(parsed);
        if (files.size() != 1) {
            return TOOL.mistake(err, "expected exactly one scenario file");
        }
        String file = files.get(0);
        Scenario s;
        try {
            s = Scenarios.load(Path.of(file));
        } catch (NoSuchFileException e) {
            err.print("weft scenario: " + file + ": no such file\n");
            return 1;
        } catch (IOException | ScenarioException e) {
            err.print("weft scenario: " + file + ": " + e.getMessage() + "\n");
            return 1;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("scenario  : ").append(s.name()).append('\n');
        sb.append("seed      : ").append(Long.toUnsignedString(s.seed())).append('\n');
        sb.append("nodes     : ").append(s.nodes().size()).append('\n');
        s.nodes().forEach(n -> sb.append("  node ").append(n.nodeId()).append(": ").append(n.program())
                .append(n.args().isEmpty() ? "" : " " + String.join(" ", n.args())).append('\n'));
        sb.append("events    : ").append(s.events().size()).append('\n');
        for (ScenarioEvent e : s.events()) {
            sb.append("  at ").append(Long.toUnsignedString(e.timeNs())).append(" ns: ").append(describe(e.action())).append('\n');
        }
        out.print(sb);
        return 0;
    }

    private static String describe(ScenarioAction a) {
        if (a instanceof ScenarioAction.Crash c) {
            return "crash node " + c.nodeId();
        } else if (a instanceof ScenarioAction.Start st) {
            return "start node " + st.nodeId();
        } else if (a instanceof ScenarioAction.ActivatePartition p) {
            return "activate partition " + p.spec();
        }
        return "clear partition";
    }
}
