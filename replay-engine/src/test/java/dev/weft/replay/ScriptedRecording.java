package dev.weft.replay;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogWriter;
import dev.weft.log.VAddr;
import dev.weft.tcp.TcpNetwork;
import dev.weft.text.Hex;
import java.io.IOException;
import java.util.Arrays;

/**
 * Writes a recording by hand the way the broker does, for tests that need a small TCP log of their own: each step
 * applies an operation to a core and appends the record it yields, stamped with the core's vt after it.
 * {@link #openStream} is the opening most of them share.
 */
public final class ScriptedRecording {
    /** The connections {@link #openStream} uses: the listener, the connecting client, the adopted server end. */
    public static final long LISTENER = 1, CLIENT = 2, SERVER_END = 3;

    private final Core core;
    private final LogWriter log;

    public ScriptedRecording(Core core, LogWriter log) {
        this.core = core;
        this.log = log;
    }

    public void record(Event e) throws IOException {
        log.append(core.vt(), e);
    }

    /**
     * The tcp ext record, then one stream: {@link #LISTENER} binds server and listens (backlog 4), {@link #CLIENT}
     * on node 0 connects at connectVt, the listener accepts it (blocking) and {@link #SERVER_END} adopts it.
     */
    public TcpNetwork.ConnectResult openStream(VAddr server, long connectVt) throws Exception {
        TcpNetwork tcp = core.tcp();
        record(new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
        record(new Event.TcpBind(LISTENER, tcp.bind(LISTENER, server)));
        tcp.listen(LISTENER, 4);
        record(new Event.TcpListen(LISTENER, 4));
        TcpNetwork.ConnectResult c = tcp.connect(CLIENT, VAddr.ofNode(0, 0).ip(), server, connectVt);
        record(new Event.TcpConnect(CLIENT, c.sid(), c.src(), server, connectVt, c.outcome()));
        record(new Event.TcpAccept(LISTENER, true, tcp.accept(LISTENER, TcpNetwork.ALL)));
        tcp.adopt(SERVER_END, c.sid());
        record(new Event.TcpAdopt(SERVER_END, c.sid()));
        return c;
    }

    /** conn writes bytes at sendVt; the record's payload is what the stream accepted of them. */
    public TcpNetwork.WriteResult write(long conn, byte[] bytes, long sendVt) throws Exception {
        TcpNetwork.WriteResult r = core.tcp().write(conn, bytes, sendVt);
        String accepted = Hex.encodeLower(Arrays.copyOf(bytes, r.accepted()));
        record(new Event.TcpSend(conn, r.sid(), r.offset(), sendVt, accepted, r.outcome()));
        return r;
    }

    /** A blocking read (no peek) of at most max bytes by conn. */
    public TcpNetwork.ReadResult read(long conn, long max) throws Exception {
        TcpNetwork.ReadResult r = core.tcp().read(conn, max, false, TcpNetwork.ALL);
        record(new Event.TcpRecv(conn, r.sid(), max, false, true, r.outcome()));
        return r;
    }
}
