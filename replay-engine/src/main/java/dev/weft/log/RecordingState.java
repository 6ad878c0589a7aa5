package dev.weft.log;

/** What a followed log (a recording that may still be written) is at the moment. */
public enum RecordingState {
    /** No {@code end} record yet and the writer may still append: a half-written last line is waited on. */
    STILL_RECORDING("still recording"),
    /** The recording stopped without its {@code end} record: the file shrank, or the writer was declared gone. */
    TRUNCATED("truncated"),
    /** The {@code end} record has been read: the recording is complete. */
    ENDED("ended");

    private final String text;

    RecordingState(String text) {
        this.text = text;
    }

    /** The words shown to the user. */
    public String text() {
        return text;
    }
}
