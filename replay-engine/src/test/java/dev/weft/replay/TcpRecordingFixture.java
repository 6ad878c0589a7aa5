package dev.weft.replay;

import dev.weft.core.Core;
import dev.weft.log.Event;
import dev.weft.log.LogMeta;
import dev.weft.log.LogWriter;
import dev.weft.log.RecvOutcome;
import dev.weft.log.TcpAcceptOutcome;
import dev.weft.log.TcpConnectOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.tcp.TcpNetwork;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Records a small TCP cluster run the way the broker does (apply to a core, record the outcome with the core's vt
 * after it, the ext record before the first TCP record): a request/response with partial reads and a peek, a
 * partition stalling a reply until the heal, half-close and close, a non-blocking connect, a crash reset, a refused
 * connect, and datagrams in between. {@code tamper} may change any event before it is written.
 */
public final class TcpRecordingFixture {

    static final long MS = 1_000_000L;
    static final String NET = "latency=uniform:1000000-5000000,loss=0.2";
    static final VAddr SERVER = VAddr.ofNode(1, 80);
    static final long CLIENT_IP = VAddr.ofNode(0, 0).ip();

    private final Core core;
    private final LogWriter w;
    private final UnaryOperator<Event> tamper;
    private boolean ext;
    final List<Event> written = new ArrayList<>();

    private TcpRecordingFixture(Core core, LogWriter w, UnaryOperator<Event> tamper) {
        this.core = core;
        this.w = w;
        this.tamper = tamper;
    }

    private void rec(Event e) throws Exception {
        if (e.isTcp() && !ext) {
            ext = true;
            rec(new Event.Ext(Event.Ext.TCP, Event.Ext.TCP_VERSION));
        }
        Event out = tamper.apply(e);
        written.add(out);
        w.append(core.vt(), out);
    }

    public static List<Event> write(Path path, long seed, UnaryOperator<Event> tamper) throws Exception {
        FaultModel m = FaultModel.of(seed, NET);
        try (LogWriter w = LogWriter.create(path, seed, NET, 0, LogMeta.EMPTY)) {
            TcpRecordingFixture f = new TcpRecordingFixture(new Core(m), w, tamper);
            f.run();
            return f.written;
        }
    }

    private void run() throws Exception {
        TcpNetwork tcp = core.tcp();
        // node 1 listens; node 0 connects and sends a request
        for (long conn = 1; conn <= 2; conn++) {
            core.connect(conn);
            rec(new Event.Connect(conn));
            rec(new Event.Hello(conn, conn == 1 ? 1 : 0));
        }
        rec(new Event.TcpBind(1, tcp.bind(1, SERVER)));
        tcp.listen(1, 8);
        rec(new Event.TcpListen(1, 8));
        TcpNetwork.ConnectResult c = tcp.connect(2, CLIENT_IP, SERVER, MS);
        rec(new Event.TcpConnect(2, c.sid(), c.src(), SERVER, MS, c.outcome()));
        TcpAcceptOutcome a = tcp.accept(1, TcpNetwork.ALL);
        rec(new Event.TcpAccept(1, true, a));
        core.connect(3);
        rec(new Event.Connect(3));
        rec(new Event.Hello(3, 1));
        tcp.adopt(3, c.sid());
        rec(new Event.TcpAdopt(3, c.sid()));
        write(2, "GET / HTTP/1.0\r\n\r\n", 20 * MS);
        read(3, 4096, false);
        // datagrams in between: their fates are the datagram model's, whatever TCP does
        VAddr u0 = VAddr.ofNode(0, 9000), u1 = VAddr.ofNode(1, 9000);
        core.bind(3, u1);
        rec(new Event.Bind(3, u1));
        Core.SendResult sr = core.send(u0, u1, new byte[] {1, 2, 3}, 30 * MS);
        rec(new Event.Send(2, u0, u1, sr.chanSeq(), 30 * MS, "010203", sr.outcome()));
        RecvOutcome ro = core.recv(3);
        rec(new Event.Recv(3, true, ro));
        // the reply, read in pieces and peeked
        write(3, "HTTP/1.0 200 OK\r\n\r\n", 40 * MS);
        write(3, "hello, world", 41 * MS);
        read(2, 4, true);
        read(2, 4, false);
        read(2, 100, false);
        // a partition stalls the rest until the heal
        tcp.partitionAt(100 * MS, "0|1");
        rec(new Event.TcpPartition(100 * MS, "0|1"));
        write(3, "after the heal", 150 * MS);
        read(2, 100, false);
        tcp.partitionAt(400 * MS, "");
        rec(new Event.TcpPartition(400 * MS, ""));
        read(2, 100, false);
        // half-close, EOF, close
        tcp.shutdown(2, false, true);
        rec(new Event.TcpShutdown(2, c.sid(), Event.TcpShutdown.WR));
        read(3, 100, false);
        TcpNetwork.CloseResult cr = tcp.close(3);
        rec(new Event.TcpClose(3, cr.sid(), cr.reset()));
        read(2, 100, false);
        cr = tcp.close(2);
        rec(new Event.TcpClose(2, cr.sid(), cr.reset()));
        core.disconnect(2);
        rec(new Event.Disconnect(2));
        core.disconnect(3);
        rec(new Event.Disconnect(3));
        // a non-blocking connect, then a crash of the server's node resets it
        core.connect(4);
        rec(new Event.Connect(4));
        rec(new Event.Hello(4, 0));
        TcpNetwork.ConnectResult c2 = tcp.connect(4, CLIENT_IP, SERVER, 500 * MS);
        rec(new Event.TcpConnect(4, c2.sid(), c2.src(), SERVER, 500 * MS, TcpConnectOutcome.PENDING));
        rec(new Event.TcpEstablished(4, c2.sid(), tcp.connectOutcome(4)));
        rec(new Event.TcpAccept(1, false, tcp.accept(1, TcpNetwork.ALL)));
        for (long sid : tcp.crashNode(1, 600 * MS)) rec(new Event.TcpReset(sid, Event.TcpReset.CRASH, 600 * MS));
        read(4, 10, true);
        core.disconnect(1);
        rec(new Event.Disconnect(1));
        // nothing listens any more: refused
        core.connect(5);
        rec(new Event.Connect(5));
        TcpNetwork.ConnectResult c3 = tcp.connect(5, CLIENT_IP, SERVER, 700 * MS);
        rec(new Event.TcpConnect(5, c3.sid(), c3.src(), SERVER, 700 * MS, c3.outcome()));
        rec(new Event.End(written.size() + 1, core.sent(), core.dropped()));
    }

    private void write(long conn, String text, long at) throws Exception {
        byte[] b = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        TcpNetwork.WriteResult r = core.tcp().write(conn, b, at);
        String hex = dev.weft.text.Hex.encodeLower(java.util.Arrays.copyOf(b, r.accepted()));
        rec(new Event.TcpSend(conn, r.sid(), r.offset(), at, hex, r.outcome()));
    }

    private void read(long conn, long max, boolean peek) throws Exception {
        TcpNetwork.ReadResult r = core.tcp().read(conn, max, peek, TcpNetwork.ALL);
        rec(new Event.TcpRecv(conn, r.sid(), max, peek, true, r.outcome()));
    }
}
