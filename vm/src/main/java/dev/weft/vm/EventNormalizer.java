package dev.weft.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the guest's serial console into events.jsonl: each {@code SF {...}} line becomes one event, numbered
 * {@code n} in console order, with the fields in {@link #EXCLUDED_GUEST_FIELDS} removed. Everything else on the
 * console (kernel messages) is left out; see {@link #EXCLUDED} for the full list of what never enters the file.
 */
public final class EventNormalizer {

    /** Guest event fields dropped from every event. */
    public static final List<String> EXCLUDED_GUEST_FIELDS = List.of("t", "pid");

    /** What events.jsonl leaves out, as written into manifest.json. */
    public static final List<String> EXCLUDED = List.of(
            "t: the guest's CLOCK_MONOTONIC timestamp of each event (ns)",
            "pid: the guest process id of the emitting program (the lane is named by 'p' instead)",
            "console lines that are not 'SF {...}' events: kernel messages and QEMU diagnostics on the console",
            "host timestamps: wall and monotonic times of the record or replay (never written anywhere)",
            "host process ids: QEMU's pid (never written anywhere)",
            "temporary paths: the QMP socket and scratch directory (never written anywhere)",
            "QEMU's stderr diagnostics (printed on failure, never recorded)");

    private static final String PREFIX = "SF {";

    private EventNormalizer() {
    }

    /** One normalized event per element, in console order. A malformed event line becomes a 'malformed' event. */
    public static List<ObjectNode> normalize(byte[] console) {
        List<ObjectNode> events = new ArrayList<>();
        String text = new String(console, StandardCharsets.UTF_8);
        for (String raw : text.split("\n", -1)) {
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            if (!line.startsWith(PREFIX)) {
                continue;
            }
            ObjectNode event = Json.MAPPER.createObjectNode();
            event.put("n", events.size());
            try {
                JsonNode parsed = Json.MAPPER.readTree(line.substring(3));
                if (!parsed.isObject()) {
                    throw new IOException("not an object");
                }
                parsed.fields().forEachRemaining(f -> {
                    if (!EXCLUDED_GUEST_FIELDS.contains(f.getKey()) && !f.getKey().equals("n")) {
                        event.set(f.getKey(), f.getValue());
                    }
                });
            } catch (IOException e) {
                event.put("p", "?");
                event.put("e", "malformed");
                event.put("text", line.length() > 200 ? line.substring(0, 200) : line);
            }
            events.add(event);
        }
        return events;
    }

    /** events.jsonl's bytes: one compact JSON object per line. */
    public static byte[] toJsonl(List<ObjectNode> events) {
        StringBuilder sb = new StringBuilder();
        for (ObjectNode e : events) {
            sb.append(Json.compact(e)).append('\n');
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
