package dev.weft.history;

import dev.weft.log.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The history as {@code weft run} collects it (docs/history.md): the line prefix client programs print, the file
 * beside a recording, and one event as the canonical line written there.
 */
public final class HistoryFile {

    /** A node's stdout line starting with this is a history event (the JSON object follows). */
    public static final String PREFIX = "WEFT-HISTORY ";

    private static final byte[] PREFIX_BYTES = PREFIX.getBytes(StandardCharsets.US_ASCII);

    private HistoryFile() {
    }

    /**
     * The history file of a recording: the recording's name without {@code .weftlog} or {@code .weftlog.gz}, plus
     * {@code .history.jsonl} ({@code run.weftlog} → {@code run.history.jsonl}).
     */
    public static Path beside(Path recording) {
        String name = recording.getFileName().toString();
        for (String ext : new String[] {".weftlog.gz", ".weftlog"}) {
            if (name.endsWith(ext) && name.length() > ext.length()) {
                name = name.substring(0, name.length() - ext.length());
                break;
            }
        }
        return recording.resolveSibling(name + ".history.jsonl");
    }

    /** Whether {@code line[0, length)} is a history line (starts with {@link #PREFIX}). */
    public static boolean isHistoryLine(byte[] line, int length) {
        if (length < PREFIX_BYTES.length) {
            return false;
        }
        for (int i = 0; i < PREFIX_BYTES.length; i++) {
            if (line[i] != PREFIX_BYTES[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The event of a history line's JSON (without the prefix), or a {@link HistoryFormatException} whose message
     * says what is wrong (no file or line: the caller names the node).
     */
    public static HistoryEvent parse(byte[] json) throws HistoryFormatException {
        try {
            return HistoryReader.parseLine(0, json);
        } catch (dev.weft.json.JsonSyntaxError e) {
            throw new HistoryFormatException("not JSON: " + e.what() + " at column " + e.column());
        } catch (HistoryReader.Problem e) {
            throw new HistoryFormatException(e.getMessage());
        }
    }

    /** The event as one canonical line (members in a fixed order, a key always as a string), newline included. */
    public static String line(HistoryEvent e) {
        StringBuilder sb = new StringBuilder(96).append('{');
        if (e.node() >= 0) {
            sb.append("\"node\":").append(e.node()).append(',');
        }
        sb.append("\"process\":").append(e.process())
                .append(",\"type\":\"").append(e.type().word())
                .append("\",\"f\":\"").append(e.f().word()).append('"');
        if (e.key() != null) {
            sb.append(",\"key\":").append(CanonicalJson.string(e.key()));
        }
        if (!e.value().isNull()) {
            sb.append(",\"value\":").append(e.value().text());
        }
        return sb.append(",\"time\":").append(e.time()).append("}\n").toString();
    }
}
