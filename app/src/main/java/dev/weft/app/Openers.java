package dev.weft.app;

import dev.weft.app.source.IndexedRecordingSource;
import dev.weft.app.source.RecordingOpener;
import dev.weft.app.source.RunDirectorySource;

/** The standard way to open recording files: through the replay engine's index. */
final class Openers {

    private Openers() { }

    static RecordingOpener standard() {
        // A SimFerret run directory (weft vm record) opens as a timeline of its guest events.
        return (file, progress) -> RunDirectorySource.isRunDirectory(file) ? RunDirectorySource.open(file, progress)
                : IndexedRecordingSource.open(file, progress);
    }
}
