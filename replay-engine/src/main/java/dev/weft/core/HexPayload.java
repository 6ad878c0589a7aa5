package dev.weft.core;

import java.util.Locale;

/**
 * A datagram payload kept as the hex text a log carries, so that replay can pass it through the core without
 * decoding it to bytes and encoding it again: the core's deliveries only ever need its lowercase hex form.
 */
public final class HexPayload {

    private HexPayload() {
    }

    /**
     * The payload's lowercase hex (the form the core delivers), or null if {@code hex} is not a payload (odd length
     * or a non-hex character). Returns {@code hex} itself when it is lowercase already, the usual case.
     */
    public static String lowercaseOrNull(String hex) {
        int n = hex.length();
        if ((n & 1) != 0) return null;
        boolean upper = false;
        for (int i = 0; i < n; i++) {
            char c = hex.charAt(i);
            if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) continue;
            if (c >= 'A' && c <= 'F') {
                upper = true;
                continue;
            }
            return null;
        }
        return upper ? hex.toLowerCase(Locale.ROOT) : hex;
    }
}
