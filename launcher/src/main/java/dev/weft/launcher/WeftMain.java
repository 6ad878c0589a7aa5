package dev.weft.launcher;

/** Entry point of the {@code weft} command. */
public final class WeftMain {
    private WeftMain() {
    }

    public static void main(String[] args) {
        System.out.println("weft 0.0.2");
    }
}
