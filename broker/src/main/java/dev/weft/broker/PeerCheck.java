package dev.weft.broker;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.function.Consumer;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Same-user check for Unix-socket peers. The kernel's {@code SO_PEERCRED} gives the uid of the process that
 * connected; the JDK exposes it for Unix-domain channels ({@link ExtendedSocketOptions#SO_PEERCRED}), so no native
 * call is needed. The peer's user is compared with the owner of the broker's private socket directory, which this
 * process created (both are the JDK's uid-based principals, compared by uid).
 */
public final class PeerCheck {
    private final UserPrincipal self;

    public PeerCheck(Path ownDirectory) throws IOException {
        this.self = Files.getOwner(ownDirectory);
    }

    /**
     * True if the peer runs as this user; otherwise the peer is named to {@code diagnostics} (the line starts with
     * {@code prefix}), closed, and false is returned.
     */
    public boolean admit(SocketChannel peer, Consumer<String> diagnostics, String prefix) {
        String refusal = refusal(peer);
        if (refusal == null) {
            return true;
        }
        diagnostics.accept(prefix + refusal);
        try {
            peer.close();
        } catch (IOException e) {
            // refused either way
        }
        return false;
    }

    /** Null if the peer runs as this user, otherwise why it is refused. */
    public String refusal(SocketChannel peer) {
        try {
            UnixDomainPrincipal p = peer.getOption(ExtendedSocketOptions.SO_PEERCRED);
            if (p.user().equals(self)) {
                return null;
            }
            return "peer runs as user " + p.user().getName() + ", not " + self.getName();
        } catch (IOException | UnsupportedOperationException e) {
            return "cannot read the peer's credentials (" + e.getMessage() + ")";
        }
    }
}
