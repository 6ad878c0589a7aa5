package dev.weft.app.vm;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** What search and the payload filter match against: the event line, the payload hex and its decoded text. */
final class EventText {

    private EventText() { }

    static String payloadHex(Event e) {
        if (e instanceof Event.Send s) return s.payload();
        if (e instanceof Event.Recv r && r.outcome() instanceof RecvOutcome.Delivered d) return d.payload();
        return null;
    }

    /** The payload's decoded text or its hex contains lower (already lower-case). */
    static boolean payloadContains(Event e, String lower) {
        String hex = payloadHex(e);
        if (hex == null) return false;
        if (hex.toLowerCase(Locale.ROOT).contains(lower)) return true;
        byte[] b = PayloadText.decodeHex(hex);
        return b != null && new String(b, StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT).contains(lower);
    }

    /** The event line or the payload (hex or text) contains lower. */
    static boolean matches(String line, LogRecord r, String lower) {
        return line.toLowerCase(Locale.ROOT).contains(lower) || payloadContains(r.event(), lower);
    }
}
