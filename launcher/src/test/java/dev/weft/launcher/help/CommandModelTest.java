package dev.weft.launcher.help;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.launcher.WeftCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Model.CommandSpec;

/** The picocli model of the command line: complete, in step with the help texts, and the source of completion. */
class CommandModelTest {

    @Test
    void theModelHasEveryCommandThenHelp() {
        List<String> expected = new ArrayList<>();
        for (WeftCommand c : WeftCommand.values()) {
            expected.add(c.word());
        }
        expected.add("help");
        assertEquals(expected, new ArrayList<>(CommandModel.weft().subcommands().keySet()));
    }

    @Test
    void bothCompletionScriptsListEverySubcommandOfTheModel() {
        String bash = CompletionScript.bash();
        String zsh = CompletionScript.zsh();
        for (String word : CommandModel.weft().subcommands().keySet()) {
            assertTrue(bash.contains("\n    " + word + ") opts=\""), "bash completes after " + word);
            assertTrue(zsh.contains("\n    '" + word + ":"), "zsh describes " + word);
            assertTrue(bash.contains(" " + word + " ") || bash.contains("\"" + word + " "), "bash offers " + word);
        }
    }

    /**
     * A command parsed with its model: its help text names every option the parser accepts (-h/--help aside), so an
     * option cannot be added without its help line. (The help may name more: `weft plan`'s names `weft run --plan`.)
     */
    @Test
    void helpTextsNameEveryOptionTheModelsAccept() {
        int parsedWithModel = 0;
        for (WeftCommand c : WeftCommand.values()) {
            if (!CommandModel.parsesWithModel(c)) {
                continue;
            }
            parsedWithModel++;
            Set<String> accepted = new TreeSet<>(CommandModel.optionNames(CommandModel.of(c)));
            Set<String> documented = new TreeSet<>(CommandModel.optionNames(CommandModel.documentedOptions(c)));
            accepted.removeAll(List.of("-h", "--help"));
            documented.removeAll(List.of("-h", "--help"));
            assertTrue(documented.containsAll(accepted), c.word() + ": the help text names " + documented
                    + ", the parser accepts " + accepted);
        }
        assertTrue(parsedWithModel >= 7, "diff, explain, plan, state, convert, scenario, completion parse with picocli");
    }

    @Test
    void aModelThatParsesAnswersHelp() throws ArgsProblem {
        for (WeftCommand c : WeftCommand.values()) {
            if (CommandModel.parsesWithModel(c)) {
                CommandSpec spec = CommandModel.of(c);
                assertTrue(CommandArgs.parse(spec, "--help").isUsageHelpRequested(), c.word());
            }
        }
    }

    @Test
    void optionValuesComeFromTheModel() {
        String bash = CompletionScript.bash();
        assertTrue(bash.contains("\n    --by) COMPREPLY=($(compgen -W \"op vt\""), bash);
        assertTrue(bash.contains("\n    --to) COMPREPLY=($(compgen -W \"perfetto\""), bash);
        assertTrue(bash.contains("\n    completion) opts=\"-h --help\"; subs=\"bash zsh\" ;;"), bash);
        assertTrue(bash.contains("\n    --model) COMPREPLY=($(compgen -W \"register cas-register kv set list-append\""), bash);
        // campaign's options are its parser's, and its folder subcommands follow it
        assertTrue(bash.contains("\n    campaign) opts=\"--config --seeds --jobs --out --shard --hosts --place"
                + " --token-file -h --help\"; subs=\"merge compact verify shrink\" ;;"), bash);
        // what the parser accepts, not every option its help mentions (plan's help names `weft run --plan`)
        assertTrue(bash.contains("\n    plan) opts=\"-h --help\"; subs=\"\" ;;"), bash);
    }
}
