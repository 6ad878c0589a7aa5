package dev.weft.fuzz;

/** A config that cannot be used; the message is the text after {@code weft fuzz: } (fuzz.md §2). */
public final class FuzzConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    public FuzzConfigException(String message) {
        super(message);
    }
}
