package dev.weft.app.source;

/**
 * Whether the file verified and replayed. For a bad file: the first bad op (records before it are shown),
 * the physical line (0 if none) and the error text, which names what is wrong as the spec words it.
 */
public record Verification(Status status, long badOp, long line, String message, String digest) {

    /** RECORDING: a log followed while it is written; every record so far verified, no digest yet. */
    public enum Status { VERIFIED, RECORDING, READ_ERROR, DIVERGED }

    public static Verification verified(String digest) {
        return new Verification(Status.VERIFIED, -1, 0, "", digest);
    }

    /** A followed log: the records read so far verified and replayed; the stream digest comes with the end. */
    public static Verification recordingSoFar() {
        return new Verification(Status.RECORDING, -1, 0, "", "");
    }

    public static Verification readError(long badOp, long line, String message) {
        return new Verification(Status.READ_ERROR, badOp, line, message, "");
    }

    public static Verification diverged(long op, String message) {
        return new Verification(Status.DIVERGED, op, 0, message, "");
    }

    /** Nothing wrong so far (verified, or verified up to where a followed recording has been written). */
    public boolean ok() {
        return status == Status.VERIFIED || status == Status.RECORDING;
    }
}
