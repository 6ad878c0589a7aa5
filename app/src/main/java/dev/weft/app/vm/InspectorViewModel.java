package dev.weft.app.vm;

import dev.weft.log.Event;
import dev.weft.log.LogRecord;
import dev.weft.log.RecvOutcome;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/** The inspector: for the selected record its title, canonical JSON, payload dump and decoded report. */
public final class InspectorViewModel {

    private final DocumentViewModel doc;
    private final ReadOnlyStringWrapper title = new ReadOnlyStringWrapper(this, "title", "");
    private final ReadOnlyStringWrapper json = new ReadOnlyStringWrapper(this, "json", "");
    private final ReadOnlyStringWrapper hexDump = new ReadOnlyStringWrapper(this, "hexDump", "");
    private final ReadOnlyStringWrapper decoded = new ReadOnlyStringWrapper(this, "decoded", "");

    public InspectorViewModel(DocumentViewModel doc) {
        this.doc = doc;
        doc.selectionProperty().addListener((o, a, b) -> show(b.intValue()));
        show(doc.selectionProperty().get());
    }

    public ReadOnlyStringProperty titleProperty() { return title.getReadOnlyProperty(); }
    public ReadOnlyStringProperty jsonProperty() { return json.getReadOnlyProperty(); }
    public ReadOnlyStringProperty hexDumpProperty() { return hexDump.getReadOnlyProperty(); }
    public ReadOnlyStringProperty decodedProperty() { return decoded.getReadOnlyProperty(); }

    private void show(int op) {
        if (op < 0 || op >= doc.size()) {
            title.set("no record selected");
            json.set("");
            hexDump.set("");
            decoded.set("");
            return;
        }
        LogRecord r = doc.source().record(op);
        title.set("op " + op + " · vt " + Long.toUnsignedString(r.vt()) + " ns · " + doc.source().eventLine(op));
        json.set(doc.source().canonicalJson(op));
        String payload = payloadOf(r.event());
        if (payload == null) {
            hexDump.set("(no payload)");
            decoded.set("");
            return;
        }
        byte[] bytes = PayloadText.decodeHex(payload);
        hexDump.set(bytes == null ? "(payload is not valid hex: " + payload + ")" : PayloadText.hexDump(bytes));
        PayloadText.Report rep = PayloadText.parseReport(payload);
        decoded.set(rep == null ? "" : rep.describe());
    }

    static String payloadOf(Event e) {
        if (e instanceof Event.Send s) return s.payload();
        if (e instanceof Event.Recv r && r.outcome() instanceof RecvOutcome.Delivered d) return d.payload();
        return null;
    }
}
