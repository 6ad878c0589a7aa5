package dev.weft.app.vm;

import dev.weft.timeline.ProtocolViews;
import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import dev.weft.log.TcpRecvOutcome;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * The inspector: for the selected record its title, canonical JSON, payload dump and decoded report. The
 * record is read and formatted in the background; meanwhile the title says it is loading, and when the
 * selection moves on before a read finishes, only the newest one is published.
 */
public final class InspectorViewModel {

    public static final String LOADING = "…";

    private final DocumentViewModel doc;
    private final TaskRunner runner;
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    private final ReadOnlyStringWrapper json = new ReadOnlyStringWrapper(this, "json", "");
    private final ReadOnlyStringWrapper hexDump = new ReadOnlyStringWrapper(this, "hexDump", "");
    private final ReadOnlyStringWrapper decoded = new ReadOnlyStringWrapper(this, "decoded", "");
    private volatile int requested = -1;

    /** What the panel shows for one record, built off the UI thread. */
    record Shown(String title, String json, String hexDump, String decoded) { }

    public InspectorViewModel(DocumentViewModel doc, TaskRunner runner) {
        this.doc = doc;
        this.runner = runner;
        doc.selectionProperty().addListener((o, a, b) -> show(b.intValue()));
        show(doc.selectionProperty().get());
    }

    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ReadOnlyStringProperty jsonProperty() { return json.getReadOnlyProperty(); }
    public ReadOnlyStringProperty hexDumpProperty() { return hexDump.getReadOnlyProperty(); }
    public ReadOnlyStringProperty decodedProperty() { return decoded.getReadOnlyProperty(); }

    private void show(int op) {
        if (op < 0 || op >= doc.size()) {
            requested = -1;
            publish(new Shown("no record selected", "", "", ""));
            return;
        }
        requested = op;
        publish(new Shown("op " + op + " · " + LOADING, LOADING, "", ""));
        runner.background(() -> {
            if (requested != op) return;     // superseded before it started
            Shown s = describe(op);
            runner.ui(() -> {
                if (requested == op) publish(s);
            });
        });
    }

    private void publish(Shown s) {
        title.set(s.title());
        json.set(s.json());
        hexDump.set(s.hexDump());
        decoded.set(s.decoded());
    }

    /** Reads and formats op (worker thread); a read failure is shown in the panel, not thrown. */
    private Shown describe(int op) {
        LogRecord r;
        String line, canonical;
        try {
            r = doc.source().record(op);
            line = doc.source().eventLine(op);
            canonical = doc.source().canonicalJson(op);
        } catch (RuntimeException e) {
            return new Shown("op " + op + " · cannot read: " + e.getMessage(), "", "", "");
        }
        String title = "op " + op + " · vt " + Long.toUnsignedString(r.vt()) + " ns · " + line;
        String payload = payloadOf(r.event());
        if (payload == null) return new Shown(title, canonical, "(no payload)", "");
        byte[] bytes = PayloadText.decodeHex(payload);
        String dump = bytes == null ? "(payload is not valid hex: " + payload + ")" : PayloadText.hexDump(bytes);
        if (bytes != null && r.event().isTcp()) return new Shown(title, canonical, dump, StreamText.describe(bytes));
        PayloadText.Report rep = PayloadText.parseReport(payload);
        String words = rep == null ? null : ProtocolViews.describeReport(doc.protocol().protocol(), rep.fields());
        return new Shown(title, canonical, dump, words == null ? "" : words);
    }

    static String payloadOf(Event e) {
        if (e instanceof Event.Send s) return s.payload();
        if (e instanceof Event.Recv r && r.outcome() instanceof RecvOutcome.Delivered d) return d.payload();
        if (e instanceof Event.TcpSend t) return t.payload();
        if (e instanceof Event.TcpRecv t && t.outcome() instanceof TcpRecvOutcome.Data d) return d.payload();
        return null;
    }
}
