package dev.weft.app.vm;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The `weft` command lines behind "copy as command", quoted for a POSIX shell. */
public final class ReproCommand {

    private ReproCommand() { }

    private static final Map<String, String> SHORT = new TreeMap<>(Map.of(
            "per-channel-fifo", "fifo", "no-duplicate-delivery", "dup"));

    public static String replay(Path file, int untilOp, List<String> invariants) {
        StringBuilder sb = new StringBuilder("weft replay ").append(quote(file.toString()));
        if (untilOp >= 0) sb.append(" --until ").append(untilOp);
        if (!invariants.isEmpty()) {
            sb.append(" --check ");
            for (int i = 0; i < invariants.size(); i++) {
                if (i > 0) sb.append(',');
                sb.append(SHORT.getOrDefault(invariants.get(i), invariants.get(i)));
            }
        }
        return sb.toString();
    }

    public static String workbench(Path file, int untilOp) {
        return "weft workbench " + quote(file.toString()) + (untilOp >= 0 ? " --until " + untilOp : "");
    }

    /** Leaves plain words alone, wraps anything else in single quotes. */
    public static String quote(String s) {
        if (!s.isEmpty() && s.chars().allMatch(c -> Character.isLetterOrDigit(c) || "/._-+=:,@%".indexOf(c) >= 0)) return s;
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
