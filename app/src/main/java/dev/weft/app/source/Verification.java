package dev.weft.app.source;

/**
 * Whether the file verified and replayed. For a bad file: the first bad op (records before it are shown),
 * the physical line (0 if none) and the error text, which names what is wrong as the spec words it.
 */
public record Verification(Status status, long badOp, long line, String message, String digest) {

    public enum Status { VERIFIED, READ_ERROR, DIVERGED }

    public static Verification verified(String digest) {
        return new Verification(Status.VERIFIED, -1, 0, "", digest);
    }

    public static Verification readError(long badOp, long line, String message) {
        return new Verification(Status.READ_ERROR, badOp, line, message, "");
    }

    public static Verification diverged(long op, String message) {
        return new Verification(Status.DIVERGED, op, 0, message, "");
    }

    public boolean ok() {
        return status == Status.VERIFIED;
    }
}
