package dev.weft.launcher.help;

import dev.weft.launcher.WeftCli;
import dev.weft.launcher.WeftCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * docs/cli.md: the command-line reference, made of the commands' own help texts (the same strings
 * {@code weft <command> --help} prints), so the page cannot drift from the program. A launcher test compares the
 * page with {@link #markdown()}.
 */
public final class CliReference {

    private CliReference() {
    }

    public static void main(String[] args) {
        System.out.print(markdown());
    }

    public static String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Command-line reference\n\n")
                .append("Generated from the commands' own help texts (`weft <command> --help` prints the same) by\n")
                .append("`dev.weft.launcher.help.CliReference`; `CliReferenceTest` fails when this page and the program disagree.\n")
                .append("Regenerate with `mvn -B -ntp -pl launcher -am test -Dtest=CliReferenceTest -Dweft.docs.update=true")
                .append(" -Dsurefire.failIfNoSpecifiedTests=false`.\n")
                .append("Exit codes and output lines that scripts parse follow the interoperability spec; see\n")
                .append("[compatibility.md](compatibility.md) for where we deliberately differ from the reference.\n\n");
        sb.append("| command | what it does |\n|---|---|\n");
        for (WeftCommand c : WeftCommand.values()) {
            sb.append("| [`weft ").append(c.word()).append("`](#weft-").append(c.word()).append(") | ")
                    .append(c.summary().replace("|", "\\|").replace("<", "&lt;")).append(" |\n");
        }
        section(sb, "weft", WeftCli.usage());
        section(sb, "weft --version", WeftCli.VERSION + "\nWeft Workbench <release>, weft-log format v2 "
                + "(reads and writes the recordings of Weft 0.0.2)\n");
        for (WeftCommand c : WeftCommand.values()) {
            section(sb, "weft " + c.word(), c.usage());
            for (String sub : c.subwords()) {
                String help = helpOf(c.word(), sub);
                if (help != null && !help.equals(c.usage())) {
                    section(sb, "weft " + c.word() + " " + sub, help);
                }
            }
        }
        return sb.toString();
    }

    private static void section(StringBuilder sb, String title, String body) {
        sb.append("\n## ").append(title).append("\n\n```text\n").append(body);
        if (!body.endsWith("\n")) {
            sb.append('\n');
        }
        sb.append("```\n");
    }

    /** The help a two-word command prints, or null if it has none. */
    private static String helpOf(String word, String sub) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = WeftCli.run(new String[] {word, sub, "--help"}, o, e);
        }
        return code == 0 ? out.toString(StandardCharsets.UTF_8) : null;
    }
}
