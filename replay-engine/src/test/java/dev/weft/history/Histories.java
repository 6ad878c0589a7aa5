package dev.weft.history;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builds histories for tests: one event per call, as JSON lines. */
final class Histories {
    private final StringBuilder sb = new StringBuilder();

    Histories invoke(int process, String f, String value, long time) {
        return event(process, "invoke", f, null, value, time);
    }

    Histories ok(int process, String f, String value, long time) {
        return event(process, "ok", f, null, value, time);
    }

    Histories info(int process, String f, long time) {
        return event(process, "info", f, null, null, time);
    }

    Histories fail(int process, String f, long time) {
        return event(process, "fail", f, null, null, time);
    }

    Histories event(int process, String type, String f, String key, String value, long time) {
        sb.append("{\"process\":").append(process).append(",\"type\":\"").append(type).append("\",\"f\":\"").append(f)
                .append('"');
        if (key != null) {
            sb.append(",\"key\":\"").append(key).append('"');
        }
        if (value != null) {
            sb.append(",\"value\":").append(value);
        }
        sb.append(",\"time\":").append(time).append("}\n");
        return this;
    }

    /** A complete operation: invoke at {@code from}, ok at {@code to}. */
    Histories op(int process, String f, String in, String out, long from, long to) {
        return invoke(process, f, in, from).ok(process, f, out, to);
    }

    String text() {
        return sb.toString();
    }

    HistoryCheck.Verdict check(HistoryModel model) throws HistoryFormatException {
        return HistoryCheck.check("h.jsonl", HistoryReader.parse("h.jsonl", sb.toString().getBytes(StandardCharsets.UTF_8)),
                model);
    }

    /**
     * A linearizable register history of {@code ops} operations by {@code clients} clients: a real register whose
     * every operation takes effect at a random instant between its invocation and its completion.
     */
    static Histories randomRegister(long seed, int clients, int ops) {
        Random rnd = new Random(seed);
        Histories h = new Histories();
        int[] phase = new int[clients]; // 0 idle, 1 invoked, 2 took effect
        boolean[] write = new boolean[clients];
        String[] value = new String[clients];
        String state = "null";
        int next = 1;
        int started = 0;
        long t = 0;
        List<Integer> busy = new ArrayList<>();
        while (started < ops || !busy.isEmpty()) {
            t += 1 + rnd.nextInt(3);
            int c = rnd.nextInt(clients);
            switch (phase[c]) {
                case 0 -> {
                    if (started == ops) {
                        continue;
                    }
                    started++;
                    write[c] = rnd.nextBoolean();
                    value[c] = write[c] ? Integer.toString(next++) : null;
                    h.invoke(c, write[c] ? "write" : "read", value[c], t);
                    phase[c] = 1;
                    busy.add(c);
                }
                case 1 -> {
                    if (write[c]) {
                        state = value[c];
                    } else {
                        value[c] = state;
                    }
                    phase[c] = 2;
                }
                default -> {
                    h.ok(c, write[c] ? "write" : "read", value[c], t);
                    phase[c] = 0;
                    busy.remove(Integer.valueOf(c));
                }
            }
        }
        return h;
    }
}
