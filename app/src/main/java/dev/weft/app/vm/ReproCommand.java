package dev.weft.app.vm;

import dev.weft.text.ShellWords;
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
        StringBuilder sb = new StringBuilder("weft replay ").append(ShellWords.quote(file.toString()));
        if (untilOp >= 0) sb.append(" --until ").append(untilOp);
        // Only the replay's own invariants go to --check; the protocol ones are `weft check PROTOCOL`'s.
        List<String> replayable = invariants.stream().filter(SHORT::containsKey).toList();
        if (!replayable.isEmpty()) {
            sb.append(" --check ");
            for (int i = 0; i < replayable.size(); i++) {
                if (i > 0) sb.append(',');
                sb.append(SHORT.get(replayable.get(i)));
            }
        }
        return sb.toString();
    }

    public static String workbench(Path file, int untilOp) {
        return "weft workbench " + ShellWords.quote(file.toString()) + (untilOp >= 0 ? " --until " + untilOp : "");
    }

}
