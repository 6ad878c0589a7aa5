package dev.weft.net;

import dev.weft.json.JsonSyntaxError;
import dev.weft.json.JsonToken;
import dev.weft.json.JsonTokenizer;
import dev.weft.log.CanonicalJson;
import dev.weft.log.Fnv1a;
import dev.weft.log.VAddr;
import dev.weft.scenario.ScenarioAction;
import dev.weft.scenario.ScenarioEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads and writes the fault plan document, format {@code weft-plan} (docs/fault-plans.md): version 1 names datagrams,
 * version 2 adds TCP segments. A plan without segments is written as version 1, byte for byte as before. Parsed with
 * the engine's own tokenizer; every problem is one {@link FaultPlanException} naming the member.
 */
public final class FaultPlanJson {

    public static final String FORMAT = "weft-plan";
    /** The version of a plan that names datagrams only. */
    public static final long VERSION = 1;
    /** The version of a plan that also names TCP segments. */
    public static final long VERSION_WITH_SEGMENTS = 2;
    /** 16 lost attempts: every attempt is lost, and the segment arrives after the back-off alone (docs/tcp.md). */
    static final long MAX_LOST_ATTEMPTS = 16;

    private FaultPlanJson() {
    }

    /** The document of a plan: members in a fixed order, one datagram per line, in (src, dst, chan_seq) order. */
    public static String write(FaultPlan plan) {
        StringBuilder b = new StringBuilder();
        boolean segments = !plan.segmentDeviations().isEmpty();
        boolean v2 = segments || plan.events() != null;
        b.append("{\"format\":\"").append(FORMAT).append("\",\"version\":")
                .append(v2 ? VERSION_WITH_SEGMENTS : VERSION)
                .append(",\"net\":").append(CanonicalJson.string(plan.net())).append(",\"datagrams\":[");
        String sep = "\n";
        for (FaultPlan.Deviation d : plan.deviations()) {
            b.append(sep).append("{\"src\":\"").append(d.id().src().text()).append("\",\"dst\":\"")
                    .append(d.id().dst().text()).append("\",\"chan_seq\":").append(Long.toUnsignedString(d.id().chanSeq()));
            if (d.fate().dropped()) b.append(",\"drop\":true}");
            else b.append(",\"latency_ns\":").append(Long.toUnsignedString(d.fate().delayNs())).append('}');
            sep = ",\n";
        }
        b.append(plan.deviations().isEmpty() ? "]" : "\n]");
        if (segments) {
            b.append(",\"segments\":[");
            sep = "\n";
            for (FaultPlan.SegmentDeviation d : plan.segmentDeviations()) {
                b.append(sep).append("{\"from\":\"").append(d.id().from().text()).append("\",\"to\":\"")
                        .append(d.id().to().text()).append("\",\"index\":").append(Long.toUnsignedString(d.id().index()))
                        .append(",\"latency_ns\":").append(Long.toUnsignedString(d.trip().latencyNs()));
                if (d.trip().lostAttempts() != 0) b.append(",\"lost_attempts\":").append(d.trip().lostAttempts());
                b.append('}');
                sep = ",\n";
            }
            b.append("\n]");
        }
        if (plan.events() != null) {
            b.append(",\"events\":[");
            sep = "\n";
            for (ScenarioEvent e : plan.events()) {
                b.append(sep).append("{\"time_ns\":").append(Long.toUnsignedString(e.timeNs()))
                        .append(",\"action\":{\"type\":\"").append(e.action().type()).append('"');
                if (e.action() instanceof ScenarioAction.Crash c) {
                    b.append(",\"node_id\":").append(Long.toUnsignedString(c.nodeId()));
                } else if (e.action() instanceof ScenarioAction.Start st) {
                    b.append(",\"node_id\":").append(Long.toUnsignedString(st.nodeId()));
                } else if (e.action() instanceof ScenarioAction.ActivatePartition p) {
                    b.append(",\"spec\":").append(CanonicalJson.string(p.spec()));
                }
                b.append("}}");
                sep = ",\n";
            }
            b.append(plan.events().isEmpty() ? "]" : "\n]");
        }
        return b.append("}\n").toString();
    }

    /** The digest a recording made with this plan document carries (FNV-1a 64 of its bytes, 16 hex digits). */
    public static String digest(byte[] document) {
        return Fnv1a.hex16(Fnv1a.update(Fnv1a.OFFSET_BASIS, document));
    }

    public static FaultPlan parse(byte[] document) throws FaultPlanException {
        JsonTokenizer t = new JsonTokenizer(document);
        try {
            return parse(t);
        } catch (JsonSyntaxError e) {
            throw new FaultPlanException("not JSON: " + e.what() + " at line " + e.line() + " column " + e.column());
        }
    }

    private static FaultPlan parse(JsonTokenizer t) throws JsonSyntaxError, FaultPlanException {
        if (t.nextToken() != JsonToken.START_OBJECT) throw new FaultPlanException("the plan is not a JSON object");
        String format = null;
        Long version = null;
        String net = null;
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = null;
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments = null;
        List<ScenarioEvent> events = null;
        Set<String> seen = new HashSet<>();
        while (t.nextToken() == JsonToken.FIELD_NAME) {
            String name = t.currentName();
            if (!seen.add(name)) throw new FaultPlanException("member " + name + ": given twice");
            JsonToken v = t.nextToken();
            switch (name) {
                case "format" -> format = string(t, v, "format");
                case "version" -> version = integer(t, v, "version");
                case "net" -> net = string(t, v, "net");
                case "datagrams" -> {
                    if (net == null) throw new FaultPlanException("member datagrams: must come after net");
                    named = datagrams(t, v, spec(net));
                }
                case "segments" -> {
                    if (net == null) throw new FaultPlanException("member segments: must come after net");
                    segments = segments(t, v, spec(net));
                }
                case "events" -> events = events(t, v);
                default -> throw new FaultPlanException("member " + name + ": unknown (a plan has format, version, "
                        + "net, datagrams and, from version 2, segments and events)");
            }
        }
        if (!FORMAT.equals(format)) throw new FaultPlanException("member format: must be \"" + FORMAT + "\"");
        if (version == null || (version != VERSION && version != VERSION_WITH_SEGMENTS)) {
            throw new FaultPlanException("member version: " + version + " is not supported (this build reads "
                    + VERSION + " and " + VERSION_WITH_SEGMENTS + ")");
        }
        if ((segments != null || events != null) && version == VERSION) {
            throw new FaultPlanException("member " + (segments != null ? "segments" : "events") + ": needs version "
                    + VERSION_WITH_SEGMENTS + " (version 1 names datagrams only)");
        }
        if (net == null) throw new FaultPlanException("member net: missing");
        return new FaultPlan(net, spec(net), named == null ? new TreeMap<>() : named,
                segments == null ? new TreeMap<>() : segments, events);
    }

    private static NetSpec spec(String net) throws FaultPlanException {
        try {
            return NetSpec.parse(net);
        } catch (NetSpecException e) {
            throw new FaultPlanException("member net: " + e.getMessage());
        }
    }

    private static TreeMap<FaultPlan.DatagramId, FaultModel.Fate> datagrams(JsonTokenizer t, JsonToken v, NetSpec spec)
            throws JsonSyntaxError, FaultPlanException {
        if (v != JsonToken.START_ARRAY) throw new FaultPlanException("member datagrams: must be an array");
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>();
        int i = 0;
        for (JsonToken e = t.nextToken(); e != JsonToken.END_ARRAY; e = t.nextToken(), i++) {
            String where = "datagrams[" + i + "]";
            if (e != JsonToken.START_OBJECT) throw new FaultPlanException("member " + where + ": must be an object");
            VAddr src = null;
            VAddr dst = null;
            Long seq = null;
            Long latency = null;
            boolean drop = false;
            Set<String> seen = new HashSet<>();
            for (String name = nextMember(t, seen, where); name != null; name = nextMember(t, seen, where)) {
                String member = where + "." + name;
                JsonToken mv = t.nextToken();
                switch (name) {
                    case "src" -> src = addr(string(t, mv, member), member);
                    case "dst" -> dst = addr(string(t, mv, member), member);
                    case "chan_seq" -> seq = integer(t, mv, member);
                    case "latency_ns" -> latency = integer(t, mv, member);
                    case "drop" -> {
                        if (mv != JsonToken.VALUE_TRUE) throw new FaultPlanException("member " + member + ": must be true");
                        drop = true;
                    }
                    default -> throw new FaultPlanException("member " + member + ": unknown (a datagram has src, dst, "
                            + "chan_seq and latency_ns or drop)");
                }
            }
            if (src == null) throw new FaultPlanException("member " + where + ".src: missing");
            if (dst == null) throw new FaultPlanException("member " + where + ".dst: missing");
            if (seq == null) throw new FaultPlanException("member " + where + ".chan_seq: missing");
            if (drop == (latency != null)) {
                throw new FaultPlanException("member " + where + ": needs exactly one of latency_ns and drop");
            }
            // The windowed broker's lookahead relies on no datagram arriving sooner than the minimum latency.
            if (latency != null && Long.compareUnsigned(latency, spec.minDelay()) < 0) {
                throw new FaultPlanException("member " + where + ".latency_ns: " + latency
                        + " is below the net spec's minimum latency " + spec.minDelay());
            }
            FaultPlan.DatagramId id = new FaultPlan.DatagramId(src, dst, seq);
            FaultModel.Fate fate = drop ? new FaultModel.Fate(true, 0) : new FaultModel.Fate(false, latency);
            if (named.put(id, fate) != null) {
                throw new FaultPlanException("member " + where + ": names the same datagram as an earlier entry");
            }
        }
        return named;
    }

    private static TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> segments(JsonTokenizer t, JsonToken v,
            NetSpec spec) throws JsonSyntaxError, FaultPlanException {
        if (v != JsonToken.START_ARRAY) throw new FaultPlanException("member segments: must be an array");
        TreeMap<FaultPlan.SegmentId, FaultPlan.SegmentTrip> named = new TreeMap<>();
        int i = 0;
        for (JsonToken e = t.nextToken(); e != JsonToken.END_ARRAY; e = t.nextToken(), i++) {
            String where = "segments[" + i + "]";
            if (e != JsonToken.START_OBJECT) throw new FaultPlanException("member " + where + ": must be an object");
            VAddr from = null;
            VAddr to = null;
            Long index = null;
            Long latency = null;
            long lost = 0;
            Set<String> seen = new HashSet<>();
            for (String name = nextMember(t, seen, where); name != null; name = nextMember(t, seen, where)) {
                String member = where + "." + name;
                JsonToken mv = t.nextToken();
                switch (name) {
                    case "from" -> from = addr(string(t, mv, member), member);
                    case "to" -> to = addr(string(t, mv, member), member);
                    case "index" -> index = integer(t, mv, member);
                    case "latency_ns" -> latency = integer(t, mv, member);
                    case "lost_attempts" -> lost = integer(t, mv, member);
                    default -> throw new FaultPlanException("member " + member + ": unknown (a segment has from, to, "
                            + "index, latency_ns and lost_attempts)");
                }
            }
            if (from == null) throw new FaultPlanException("member " + where + ".from: missing");
            if (to == null) throw new FaultPlanException("member " + where + ".to: missing");
            if (index == null) throw new FaultPlanException("member " + where + ".index: missing");
            if (latency == null) throw new FaultPlanException("member " + where + ".latency_ns: missing");
            if (Long.compareUnsigned(latency, spec.minDelay()) < 0) {
                throw new FaultPlanException("member " + where + ".latency_ns: " + latency
                        + " is below the net spec's minimum latency " + spec.minDelay());
            }
            if (Long.compareUnsigned(lost, MAX_LOST_ATTEMPTS) > 0) {
                throw new FaultPlanException("member " + where + ".lost_attempts: " + Long.toUnsignedString(lost)
                        + " is more than " + MAX_LOST_ATTEMPTS + " (a segment is sent at most 16 times)");
            }
            FaultPlan.SegmentId id = new FaultPlan.SegmentId(from, to, index);
            if (named.put(id, new FaultPlan.SegmentTrip(lost, latency)) != null) {
                throw new FaultPlanException("member " + where + ": names the same segment as an earlier entry");
            }
        }
        return named;
    }

    /** The events member: scenario events as the scenario DSL writes them (docs/spec/scenario-dsl.md). */
    private static List<ScenarioEvent> events(JsonTokenizer t, JsonToken v) throws JsonSyntaxError, FaultPlanException {
        if (v != JsonToken.START_ARRAY) throw new FaultPlanException("member events: must be an array");
        List<ScenarioEvent> events = new ArrayList<>();
        int i = 0;
        for (JsonToken e = t.nextToken(); e != JsonToken.END_ARRAY; e = t.nextToken(), i++) {
            String where = "events[" + i + "]";
            if (e != JsonToken.START_OBJECT) throw new FaultPlanException("member " + where + ": must be an object");
            Long time = null;
            ScenarioAction action = null;
            Set<String> seen = new HashSet<>();
            for (String name = nextMember(t, seen, where); name != null; name = nextMember(t, seen, where)) {
                String member = where + "." + name;
                JsonToken mv = t.nextToken();
                switch (name) {
                    case "time_ns" -> time = integer(t, mv, member);
                    case "action" -> action = action(t, mv, member);
                    default -> throw new FaultPlanException("member " + member + ": unknown (an event has time_ns and "
                            + "action)");
                }
            }
            if (time == null) throw new FaultPlanException("member " + where + ".time_ns: missing");
            if (action == null) throw new FaultPlanException("member " + where + ".action: missing");
            events.add(new ScenarioEvent(time, action));
        }
        return events;
    }

    private static ScenarioAction action(JsonTokenizer t, JsonToken v, String where)
            throws JsonSyntaxError, FaultPlanException {
        if (v != JsonToken.START_OBJECT) throw new FaultPlanException("member " + where + ": must be an object");
        String type = null;
        Long node = null;
        String spec = null;
        Set<String> seen = new HashSet<>();
        for (String name = nextMember(t, seen, where); name != null; name = nextMember(t, seen, where)) {
            String member = where + "." + name;
            JsonToken mv = t.nextToken();
            switch (name) {
                case "type" -> type = string(t, mv, member);
                case "node_id" -> node = integer(t, mv, member);
                case "spec" -> spec = string(t, mv, member);
                default -> throw new FaultPlanException("member " + member + ": unknown (an action has type and "
                        + "node_id or spec)");
            }
        }
        if (type == null) throw new FaultPlanException("member " + where + ".type: missing");
        String wants = switch (type) {
            case "crash", "start" -> node == null || spec != null ? "node_id" : null;
            case "activate_partition" -> spec == null || node != null ? "spec" : null;
            case "clear_partition" -> node != null || spec != null ? "nothing else" : null;
            default -> throw new FaultPlanException("member " + where + ".type: \"" + type + "\" is not crash, start, "
                    + "activate_partition or clear_partition");
        };
        if (wants != null) throw new FaultPlanException("member " + where + ": " + type + " takes " + wants);
        return switch (type) {
            case "crash" -> new ScenarioAction.Crash(node);
            case "start" -> new ScenarioAction.Start(node);
            case "activate_partition" -> new ScenarioAction.ActivatePartition(spec);
            default -> new ScenarioAction.ClearPartition();
        };
    }

    /** The next member name of an object entry named {@code where}, or null at its end; a repeated name is an error. */
    private static String nextMember(JsonTokenizer t, Set<String> seen, String where)
            throws JsonSyntaxError, FaultPlanException {
        if (t.nextToken() != JsonToken.FIELD_NAME) return null;
        String name = t.currentName();
        if (!seen.add(name)) throw new FaultPlanException("member " + where + "." + name + ": given twice");
        return name;
    }

    private static String string(JsonTokenizer t, JsonToken v, String member) throws FaultPlanException {
        if (v != JsonToken.VALUE_STRING) throw new FaultPlanException("member " + member + ": must be a string");
        return t.text();
    }

    private static long integer(JsonTokenizer t, JsonToken v, String member) throws FaultPlanException {
        if (v != JsonToken.VALUE_NUMBER_INT || t.text().startsWith("-")) {
            throw new FaultPlanException("member " + member + ": must be a non-negative integer");
        }
        try {
            return Long.parseUnsignedLong(t.text());
        } catch (NumberFormatException e) {
            throw new FaultPlanException("member " + member + ": does not fit in 64 bits");
        }
    }

    /** {@code a.b.c.d:port}, as the plan writes it. */
    private static VAddr addr(String text, String member) throws FaultPlanException {
        String[] hostPort = text.split(":", -1);
        String[] octets = hostPort[0].split("\\.", -1);
        if (hostPort.length != 2 || octets.length != 4) {
            throw new FaultPlanException("member " + member + ": \"" + text + "\" is not an address a.b.c.d:port");
        }
        try {
            long ip = 0;
            for (String o : octets) {
                int n = Integer.parseInt(o);
                if (n < 0 || n > 255 || !o.equals(Integer.toString(n))) throw new NumberFormatException();
                ip = (ip << 8) | n;
            }
            int port = Integer.parseInt(hostPort[1]);
            if (port < 0 || port > 0xFFFF || !hostPort[1].equals(Integer.toString(port))) throw new NumberFormatException();
            return new VAddr(ip, port);
        } catch (NumberFormatException e) {
            throw new FaultPlanException("member " + member + ": \"" + text + "\" is not an address a.b.c.d:port");
        }
    }
}
