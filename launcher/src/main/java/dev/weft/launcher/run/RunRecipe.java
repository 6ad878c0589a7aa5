package dev.weft.launcher.run;

import dev.weft.io.AtomicFile;
import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.log.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * How a recording was made, so it can be made again with another fault plan (the workbench's "What if?",
 * docs/workbench.md): {@code weft run --record LOG} writes {@code LOG.run.json} beside the recording with the working
 * directory and weft run's arguments, less {@code --record} and {@code --plan} (a re-run names its own). A file beside
 * the recording rather than a header member: the header stays byte-for-byte what it was (no path or directory in it,
 * so two identical runs from different folders still record the same bytes). Variables the shell gave weft run are not
 * recorded (they may hold secrets); {@code --env NAME=value} ones are, being arguments — but {@code PATH} is, as
 * {@code path} (null when unset), since a bare program name ({@code -- pingpong}) is found through it.
 *
 * <p>Format {@code weft-run} version 1:
 * {@code {"format":"weft-run","version":1,"cwd":DIR,"args":[ARG,…],"path":PATH}} ({@code path} may be absent).
 */
public record RunRecipe(Path cwd, List<String> args, String path) {

    public static final String SUFFIX = ".run.json";
    static final String FORMAT = "weft-run";

    /** weft run's options without a value (RunOptions' flags); every other {@code --option} takes the next word. */
    private static final Set<String> FLAGS = Set.of("--no-sched", "--trace", "--stats", "--fsync-lies", "--strict",
            "--keep-aslr", "--host-pids", "--rdtsc", "--proc-sched", "--no-proc-sched", "--dry-run");

    /** A recipe that cannot be read; the message is one line naming the file. */
    public static final class Problem extends Exception {
        public Problem(String message) {
            super(message);
        }
    }

    public static Path of(Path log) {
        return log.resolveSibling(log.getFileName() + SUFFIX);
    }

    /** weft run's arguments without {@code --record X} and {@code --plan X} (only among the options, not the program's). */
    public static List<String> withoutOutputs(String[] args) {
        List<String> kept = new ArrayList<>();
        boolean options = true;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (options) {
                if (a.equals("--")) {
                    options = false;
                } else if (a.equals("--record") || a.equals("--plan")) {
                    i++;
                    continue;
                } else if (a.startsWith("--record=") || a.startsWith("--plan=")) {
                    continue;
                } else if (a.startsWith("--") && !a.contains("=") && !FLAGS.contains(a)) {
                    kept.add(a);
                    if (i + 1 < args.length) kept.add(args[++i]);
                    continue;
                } else if (!a.startsWith("-")) {
                    options = false;   // the program's first word
                }
            }
            kept.add(a);
        }
        return kept;
    }

    /** The document: members in a fixed order, one line. */
    public String document() {
        StringBuilder b = new StringBuilder("{\"format\":\"" + FORMAT + "\",\"version\":1,\"cwd\":");
        CanonicalJson.appendString(b, cwd.toString());
        b.append(",\"args\":[");
        for (int i = 0; i < args.size(); i++) {
            if (i > 0) b.append(',');
            CanonicalJson.appendString(b, args.get(i));
        }
        b.append(']');
        if (path != null) {
            b.append(",\"path\":");
            CanonicalJson.appendString(b, path);
        }
        return b.append("}\n").toString();
    }

    public void writeBeside(Path log) throws IOException {
        AtomicFile.write(of(log), document().getBytes(StandardCharsets.UTF_8));
    }

    /** The recipe beside a recording, or null when there is none. */
    public static RunRecipe readBeside(Path log) throws Problem {
        Path file = of(log);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new Problem(file + ": cannot read: " + e.getMessage());
        }
        try {
            return parse(bytes);
        } catch (JsonSyntaxError e) {
            throw new Problem(file + ": not JSON: " + e.what() + " at line " + e.line() + " column " + e.column());
        } catch (Problem e) {
            throw new Problem(file + ": " + e.getMessage());
        }
    }

    static RunRecipe parse(byte[] bytes) throws JsonSyntaxError, Problem {
        JsonTokenizer t = new JsonTokenizer(bytes);
        if (t.nextToken() != JsonToken.START_OBJECT) throw new Problem("not a JSON object");
        String format = null, cwd = null, path = null;
        Long version = null;
        List<String> args = null;
        while (t.nextToken() == JsonToken.FIELD_NAME) {
            String name = t.currentName();
            JsonToken v = t.nextToken();
            switch (name) {
                case "format" -> format = v == JsonToken.VALUE_STRING ? t.text() : null;
                case "version" -> version = v == JsonToken.VALUE_NUMBER_INT ? Long.valueOf(t.text()) : null;
                case "cwd" -> cwd = v == JsonToken.VALUE_STRING ? t.text() : null;
                case "path" -> {
                    if (v != JsonToken.VALUE_STRING) throw new Problem("member path: must be a string");
                    path = t.text();
                }
                case "args" -> {
                    if (v != JsonToken.START_ARRAY) throw new Problem("member args: must be an array of strings");
                    args = new ArrayList<>();
                    for (JsonToken e = t.nextToken(); e != JsonToken.END_ARRAY; e = t.nextToken()) {
                        if (e != JsonToken.VALUE_STRING) throw new Problem("member args: must be an array of strings");
                        args.add(t.text());
                    }
                }
                default -> throw new Problem("member " + name + ": unknown (format 1 has format, version, cwd, args, path)");
            }
        }
        if (!FORMAT.equals(format)) throw new Problem("member format: must be \"" + FORMAT + "\"");
        if (version == null || version != 1) throw new Problem("member version: must be 1");
        if (cwd == null) throw new Problem("member cwd: missing or not a string");
        if (args == null) throw new Problem("member args: missing");
        return new RunRecipe(Path.of(cwd), List.copyOf(args), path);
    }
}
