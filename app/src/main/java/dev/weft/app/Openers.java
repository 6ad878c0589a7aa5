package dev.weft.app;

import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.RecordingOpener;

/** The standard way to open recording files: through the replay engine's index. */
final class Openers {

    private Openers() { }

    static RecordingOpener standard() {
        return IndexedRecordingSource::open;
    }
}
