package dev.weft.protocol;

import dev.weft.log.LogRecord;

/**
 * One protocol checker over one recording: fed, in file order, every record that carries a state report (a send of any
 * outcome or a delivered recv whose payload {@link StateReportPayload#ofPayload} reads), then asked once for its result.
 */
public interface ProtocolRun {

    void accept(LogRecord r);

    /** The verdict over everything accepted. */
    ProtocolResult result();
}
