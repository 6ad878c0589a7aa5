package dev.weft.text;

import java.util.List;

/**
 * Words as a POSIX shell reads them back unchanged: the one quoter behind every command line Weft prints for a person
 * to paste (repro and rerun lines, a run's dry run, the workbench's run command). A word of only safe characters stays
 * as it is; anything else is single-quoted, an embedded quote written {@code '\''}.
 */
public final class ShellWords {

    private ShellWords() { }

    /** One word, quoted only when the shell would otherwise change it. */
    public static String quote(String word) {
        if (!word.isEmpty() && word.matches("[A-Za-z0-9_./:=,@%+-]+")) return word;
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** Words quoted and joined by single spaces. */
    public static String join(List<String> words) {
        StringBuilder sb = new StringBuilder();
        for (String w : words) {
            if (sb.length() > 0) sb.append(' ');
            sb.append(quote(w));
        }
        return sb.toString();
    }
}
