package dev.weft.app;

import dev.weft.app.source.RecordingOpener;

/** The standard way to open recording files (backed by the replay engine's index). */
final class Openers {

    private Openers() { }

    static RecordingOpener standard() {
        return (file, progress) -> {
            throw new RecordingOpener.OpenException(file + ": opening files needs the replay engine's LogIndex (not built yet)");
        };
    }
}
