package dev.weft.broker;

import dev.weft.broker.wire.FrameReader;
import dev.weft.broker.wire.ProtocolException;
import dev.weft.broker.wire.ReplyWriter;
import dev.weft.broker.wire.Request;
import dev.weft.broker.wire.RequestDecoder;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

/**
 * One accepted broker connection (= one simulated socket), served by its own thread with blocking I/O: read a
 * frame, apply it through the sequencer, write the reply, in order. A blocking receive that must wait does not
 * stall the thread: it keeps reading (so a node killed while waiting is seen at once and disconnected), and the
 * send that satisfies the wait writes the Deliver here directly — one thread hop fewer per datagram.
 */
final class Connection implements OpSequencer.Waiter, OpSequencer.TcpWaiter, Runnable {
    private final long id;
    private final SocketChannel channel;
    private final OpSequencer sequencer;
    private final Consumer<String> diagnostics;
    private final boolean timeService;
    private final FrameReader in;
    private final ReplyWriter out;
    /** Serializes writes: this thread's replies and a handed-off Deliver. */
    private final Object writeLock = new Object();
    /** A blocking receive or a held TCP request of this connection is parked in the sequencer (guarded by this). */
    private boolean awaitingDelivery;
    /** TCP requests of this connection not yet answered: a held one, and a TcpUnwait sent to take it back. */
    private int tcpOutstanding;
    private volatile long nodeId = -1;
    private volatile boolean closing;
    private volatile Thread thread;

    Connection(long id, SocketChannel channel, OpSequencer sequencer, Consumer<String> diagnostics,
            boolean timeService) {
        this.id = id;
        this.channel = channel;
        this.sequencer = sequencer;
        this.diagnostics = diagnostics;
        this.timeService = timeService;
        this.in = new FrameReader(channel);
        this.out = new ReplyWriter(channel);
    }

    long id() {
        return id;
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        try {
            while (in.next()) {
                long t0 = timeService ? System.nanoTime() : 0;
                Request r = RequestDecoder.decode(in.message(), in.messageOffset(), in.messageLength());
                if (!(r instanceof Request.TcpUnwait || r instanceof Request.TcpAbort)) {
                    waitWhileAwaiting(); // those two are how a held request is taken back or the close marked
                }
                if (serve(r) && timeService) {
                    sequencer.addServiceTime(System.nanoTime() - t0);
                }
            }
        } catch (ProtocolException e) {
            if (!closing) {
                sequencer.countProtocolError();
                diagnostics.accept("weft broker: " + who() + ": " + e.getMessage() + "; connection closed");
            }
        } catch (IOException e) {
            // a reset or a write to a peer that went away ends the connection exactly like EOF (wire-and-abi.md §2)
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            sequencer.disconnect(id);
            closeQuietly();
        }
    }

    /** Serves one request; true if its reply was written by this thread. */
    private boolean serve(Request r) throws IOException, ProtocolException {
        if (r instanceof Request.Hello h) {
            nodeId = h.nodeId();
            reply(sequencer.hello(id, h.nodeId(), h.hostId()));
        } else if (r instanceof Request.Bind b) {
            reply(sequencer.bind(id, b.addr()));
        } else if (r instanceof Request.Send s) {
            OpSequencer.SendReply sr = sequencer.send(id, s.src(), s.dst(), s.payload(), s.localVt());
            sequencer.drainRecording(); // the send (and a handed-off recv) reach the log before any reply
            if (sr.handoff() != null) {
                sr.waiter().deliver(sr.handoff()); // the waiting receiver first: it is the one blocked on us
            }
            reply(sr.vt());
        } else if (r instanceof Request.Recv rv) {
            synchronized (this) {
                // set before asking, so a delivery handed over right after the ask finds the flag already up
                awaitingDelivery = rv.blocking();
            }
            OpSequencer.RecvReply rr = sequencer.recv(id, rv.blocking(), rv.waitsForever(), rv.localVt(), this);
            if (rr.waiting()) {
                return false;
            }
            synchronized (this) {
                awaitingDelivery = false;
            }
            sequencer.drainRecording();
            synchronized (writeLock) {
                if (rr.delivery() != null) {
                    OpSequencer.Delivery d = rr.delivery();
                    out.deliver(d.src(), d.dst(), d.payload(), d.vt());
                } else {
                    out.empty(rr.vt());
                }
            }
        } else if (r instanceof Request.Lease l) {
            boolean blocking = l.mode() == dev.weft.broker.wire.Wire.LEASE_BLOCKING;
            synchronized (this) {
                awaitingDelivery = blocking; // up before asking, as for a blocking Recv
            }
            OpSequencer.LeaseReply lr = sequencer.lease(id, l.mode(), l.localVt(), this);
            if (lr == null) {
                throw new ProtocolException("Lease is served by a windowed broker only");
            }
            if (lr.waiting()) {
                return false; // parked: the thread that resolves it writes the Deliver
            }
            synchronized (this) {
                awaitingDelivery = false;
            }
            sequencer.drainRecording();
            synchronized (writeLock) {
                if (lr.delivery() != null) {
                    OpSequencer.Delivery d = lr.delivery();
                    out.deliver(d.src(), d.dst(), d.payload(), d.vt());
                } else {
                    out.leased(lr.until(), lr.vt());
                }
            }
            // a held blocking receive is a wait, not service (as a parked Recv): kept out of --stats' service times
            return l.mode() != dev.weft.broker.wire.Wire.LEASE_BLOCKING;
        } else if (r instanceof Request.Frontier f) {
            reply(sequencer.frontier(id, f.localVt()));
        } else if (r instanceof Request.Goodbye) {
            sequencer.goodbye(id); // no reply (wire-and-abi.md §3)
            return false;
        } else {
            return serveTcp((Request.Tcp) r);
        }
        return true;
    }

    /** Serves a TCP request; true if its reply was written by this thread. */
    private boolean serveTcp(Request.Tcp r) {
        if (r instanceof Request.TcpAbort) {
            sequencer.tcp(id, r, this); // no reply
            return false;
        }
        synchronized (this) {
            tcpOutstanding++; // up before asking: an answer handed over right after finds it counted
        }
        OpSequencer.TcpReply tr = sequencer.tcp(id, r, this);
        if (tr.answer() == null) {
            return false; // held: the thread that resolves it writes the answer
        }
        answer(tr.answer());
        return true;
    }

    private void write(TcpAnswer a) throws IOException {
        synchronized (writeLock) {
            a.writeTo(out);
        }
    }

    /**
     * Writes a TCP answer (this thread's own, or one handed over). An UnwaitAck goes after the Ready of a wait that
     * another thread is still writing; a TakenBack ends both the wait and the TcpUnwait.
     */
    @Override
    public void answer(TcpAnswer a) {
        try {
            if (a instanceof TcpAnswer.UnwaitAck) {
                synchronized (this) {
                    while (tcpOutstanding > 1 && !closing) {
                        wait();
                    }
                }
            }
            write(a);
        } catch (IOException e) {
            // the node went away; its own thread sees the end of stream and disconnects it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            synchronized (this) {
                tcpOutstanding -= a.ends();
                notifyAll();
            }
        }
    }

    private void reply(long vt) throws IOException {
        sequencer.drainRecording();
        synchronized (writeLock) {
            out.ack(vt);
        }
    }

    @Override
    public void deliver(OpSequencer.Delivery d) {
        try {
            synchronized (writeLock) {
                out.deliver(d.src(), d.dst(), d.payload(), d.vt());
            }
        } catch (IOException e) {
            // the receiver went away; its own thread sees the end of stream and disconnects it
        } finally {
            synchronized (this) {
                awaitingDelivery = false;
                notifyAll();
            }
        }
    }

    /** A request that arrives while a blocking receive is parked is served after that receive's Deliver. */
    private synchronized void waitWhileAwaiting() throws InterruptedException {
        while (awaitingDelivery || tcpOutstanding > 0) {
            wait();
        }
    }

    /** Ends the connection from outside (broker shutdown): its thread records the disconnect if not yet done. */
    void shutdown() {
        closing = true;
        closeQuietly();
        Thread t = thread;
        if (t != null) {
            t.interrupt(); // in case it waits for a parked receive's delivery
        }
    }

    private void closeQuietly() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing a socket that already failed: nothing to report
        }
    }

    private String who() {
        long n = nodeId;
        return (n < 0 ? "a node before Hello" : "node " + n) + " (conn " + id + ")";
    }
}
