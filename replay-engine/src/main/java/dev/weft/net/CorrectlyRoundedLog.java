package dev.weft.net;

/** Natural logarithm of binary64, correctly rounded to nearest (placeholder: Math.log until the exact version lands). */
public final class CorrectlyRoundedLog {

    private CorrectlyRoundedLog() {
    }

    public static double ln(double x) {
        return Math.log(x);
    }
}
