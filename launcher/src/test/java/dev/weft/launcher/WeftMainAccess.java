package dev.weft.launcher;

/** Test access to WeftMain's package-private exit decision. */
public final class WeftMainAccess {

    private WeftMainAccess() {
    }

    public static boolean noOtherUserThreads() {
        return WeftMain.noOtherUserThreads();
    }
}
