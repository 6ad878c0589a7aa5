package dev.weft.chord;

import dev.weft.log.Event;
import dev.weft.log.LogHeader;
import dev.weft.log.LogMeta;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.SendOutcome;
import dev.weft.log.VAddr;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Records built in memory for checker tests. */
public final class TestRecords {

    private static final VAddr NODE = VAddr.ofNode(0, 9000);
    private static final VAddr OBSERVER = VAddr.ofNode(6, 9000);

    private TestRecords() {
    }

    public static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
    }

    public static LogRecord send(long op, String payloadText) {
        return sendHex(op, hex(payloadText), SendOutcome.DROPPED);
    }

    public static LogRecord sendHex(long op, String hexPayload, SendOutcome outcome) {
        return new LogRecord(op, op * 10, new Event.Send(1, NODE, OBSERVER, op, op * 10, hexPayload, outcome), 0, 0);
    }

    public static LogRecord delivered(long op, String payloadText) {
        return new LogRecord(op, op * 10, new Event.Recv(6, true,
                new RecvOutcome.Delivered(NODE, OBSERVER, op * 10, op, hex(payloadText))), 0, 0);
    }

    public static LogRecord connect(long op) {
        return new LogRecord(op, 0, new Event.Connect(op), 0, 0);
    }

    public static LogHeader header(long seed, String net) {
        return new LogHeader("{}", "weft-log", 2, seed, net, 0, LogMeta.EMPTY);
    }

    /** A Chord report text: RPT ident date alive succ succ2 prdc. */
    public static String chord(int ident, int date, int alive, int succ, int succ2, int prdc) {
        return "RPT " + ident + " " + date + " " + alive + " " + succ + " " + succ2 + " " + prdc;
    }
}
