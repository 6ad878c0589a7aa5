package dev.weft.protocol;

import dev.weft.log.LogRecord;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One protocol checker over one recording: fed, in file order, every record that carries a state report (a send of any
 * outcome or a delivered recv whose payload {@link StateReportPayload#ofPayload} reads), then asked once for its result.
 */
public interface ProtocolRun {

    void accept(LogRecord r);

    /** The verdict over everything accepted. */
    ProtocolResult result();

    /**
     * The usual run: every record goes to {@code reader} (which feeds the protocol's timeline and checker alike),
     * and {@code result} makes the verdict from what they gathered.
     */
    static ProtocolRun of(Consumer<LogRecord> reader, Supplier<ProtocolResult> result) {
        return new ProtocolRun() {
            @Override
            public void accept(LogRecord r) {
                reader.accept(r);
            }

            @Override
            public ProtocolResult result() {
                return result.get();
            }
        };
    }
}
