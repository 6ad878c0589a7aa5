package dev.weft.log;

/**
 * The format extensions a log announces as it goes (docs/weft-log-format.md "Extensions"): an {@code ext} record
 * names one before its first record, so a reader that does not know it stops at that line, and a record of an
 * extension not announced yet is malformed. Today's only extension is {@code tcp}, version 1.
 */
final class LogExtensions {

    private boolean tcp;

    /** Checks an ext or TCP record read at physical line {@code line}; an ext record switches its extension on. */
    void check(Event e, long line) throws WeftLogException {
        if (e instanceof Event.Ext x) {
            if (!Event.Ext.TCP.equals(x.name())) {
                throw WeftLogException.malformed(line, "unknown format extension "
                        + dev.weft.text.RustText.debugQuote(x.name()) + " (this reader knows \"tcp\")");
            }
            if (x.version() != Event.Ext.TCP_VERSION) {
                throw WeftLogException.malformed(line, "tcp extension version " + x.version()
                        + " is not supported (this reader knows version " + Event.Ext.TCP_VERSION + ")");
            }
            tcp = true;
        } else if (e.isTcp() && !tcp) {
            throw WeftLogException.malformed(line, e.kind()
                    + " record before the {\"k\":\"ext\",\"name\":\"tcp\",\"version\":1} record that must announce TCP");
        }
    }
}
