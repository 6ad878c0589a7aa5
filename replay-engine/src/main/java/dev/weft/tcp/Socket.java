package dev.weft.tcp;

import dev.weft.log.VAddr;
import java.util.ArrayList;
import java.util.List;

/** One simulated socket (a broker connection): where it is bound, whether it listens, which stream end it is. */
final class Socket {

    VAddr local;
    boolean listening;
    long backlog;
    /** Listeners: sids whose SYN arrived or will arrive, not yet accepted, by (synNs, sid). */
    List<Long> pending = new ArrayList<>();
    long sid = -1;
    int side;

    Socket copy() {
        Socket s = new Socket();
        s.local = local;
        s.listening = listening;
        s.backlog = backlog;
        s.pending = new ArrayList<>(pending);
        s.sid = sid;
        s.side = side;
        return s;
    }
}
