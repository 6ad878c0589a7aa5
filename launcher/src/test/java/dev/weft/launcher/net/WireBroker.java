package dev.weft.launcher.net;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A minimal broker written from wire-and-abi.md §2–3, for the shim's own tests: every datagram is
 * delivered in send order (no faults, no recording), blocking receives are held until a datagram
 * exists, and every request is counted, so a test can tell whether a waiting program polls the
 * broker. The real broker (broker module) is tested against the shim end to end elsewhere.
 * {@link #startWindowed()} answers as a windowed broker would (§3): a Recv never waits, an empty
 * queue is Empty{horizon} with a horizon the test sets, and a Deliver carries the datagram's vt.
 */
final class WireBroker implements AutoCloseable {
    record Addr(int ip, int port) {
        static Addr of(int node, int port) {
            return new Addr(0x7F000001 + node, port);
        }
    }

    private record Datagram(Addr src, Addr dst, byte[] payload, long vt) {
    }

    private final FakeBrokerSocket socket;
    private final Object lock = new Object();
    private final Map<Addr, Integer> bound = new HashMap<>();
    private final Map<Integer, ArrayDeque<Datagram>> queues = new HashMap<>();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicLong sends = new AtomicLong();
    private final AtomicLong frontiers = new AtomicLong();
    private final AtomicLong leases = new AtomicLong();
    private final AtomicLong goodbyes = new AtomicLong();
    private final AtomicLong horizon = new AtomicLong();
    private final boolean windowed;
    private volatile boolean emptyForWaiters;

    private WireBroker(boolean windowed) throws IOException {
        this.windowed = windowed;
        socket = new FakeBrokerSocket("weft-wire", "wire-broker", (ch, id) -> {
            synchronized (lock) {
                queues.put(id, new ArrayDeque<>());
            }
            return () -> serve(ch, id);
        });
    }

    static WireBroker start() throws IOException {
        return new WireBroker(false);
    }

    static WireBroker startWindowed() throws IOException {
        return new WireBroker(true);
    }

    /** Windowed: the horizon an Empty reply carries (every window before it is sealed). */
    void setHorizon(long ns) {
        synchronized (lock) {
            horizon.set(ns);
            lock.notifyAll(); // a held Lease may now be resolved
        }
    }

    /** Windowed: Lease requests received (docs/broker.md "Receive leases"). */
    long leases() {
        return leases.get();
    }

    /** Answers every held (and every later) blocking Recv with Empty, as a disconnect wake might. */
    void answerWaitersEmpty() {
        synchronized (lock) {
            emptyForWaiters = true;
            lock.notifyAll();
        }
    }

    long frontiers() {
        return frontiers.get();
    }

    long goodbyes() {
        return goodbyes.get();
    }

    /** Waits (up to 20 s of real time) until the counter reaches n; false on timeout. */
    static boolean await(java.util.function.LongSupplier counter, long n) throws InterruptedException {
        for (int i = 0; i < 2000 && counter.getAsLong() < n; i++) {
            Thread.sleep(10);
        }
        return counter.getAsLong() >= n;
    }

    /** The WEFT_BROKER value. */
    String endpoint() {
        return socket.endpoint();
    }

    long requests() {
        return requests.get();
    }

    long sends() {
        return sends.get();
    }

    /** Waits (up to 20 s of real time) until at least n requests arrived; false on timeout. */
    boolean awaitRequests(long n) throws InterruptedException {
        return await(requests::get, n);
    }

    /** Enqueues a datagram as if a node had sent it. */
    void inject(Addr src, Addr dst, byte[] payload) {
        inject(src, dst, payload, 0);
    }

    /** As above, with the delivery time a windowed Deliver reports. */
    void inject(Addr src, Addr dst, byte[] payload, long vt) {
        synchronized (lock) {
            enqueue(new Datagram(src, dst, payload, vt));
        }
    }

    private void enqueue(Datagram d) {
        Integer c = bound.get(d.dst());
        ArrayDeque<Datagram> q = c == null ? null : queues.get(c);
        if (q != null) {
            q.add(d);
            lock.notifyAll();
        }
    }

    private void serve(SocketChannel ch, int conn) {
        try (ch) {
            while (true) {
                ByteBuffer m = WireFrames.read(ch);
                if (m == null) {
                    return;
                }
                requests.incrementAndGet();
                if (!handle(ch, conn, m)) {
                    return;
                }
            }
        } catch (IOException | InterruptedException e) {
            // the connection ended: disconnect below
        } finally {
            synchronized (lock) {
                queues.remove(conn);
                bound.values().removeIf(c -> c == conn);
                lock.notifyAll();
            }
        }
    }

    private boolean handle(SocketChannel ch, int conn, ByteBuffer m) throws IOException, InterruptedException {
        int tag = m.get();
        switch (tag) {
            case 1 -> reply(ch, ack());
            case 5 -> {
                frontiers.incrementAndGet();
                reply(ch, ack());
            }
            case 2 -> {
                Addr a = addr(m);
                synchronized (lock) {
                    bound.put(a, conn);
                }
                reply(ch, ack());
            }
            case 3 -> {
                Addr src = addr(m);
                Addr dst = addr(m);
                byte[] payload = new byte[m.getInt()];
                m.get(payload);
                sends.incrementAndGet();
                synchronized (lock) {
                    enqueue(new Datagram(src, dst, payload, 0));
                }
                reply(ch, ack());
            }
            case 4 -> {
                addr(m);
                boolean blocking = m.get() != 0;
                Datagram d;
                synchronized (lock) {
                    while (blocking && !windowed && !socket.closed() && !emptyForWaiters && queues.containsKey(conn)
                            && queues.get(conn).isEmpty()) {
                        lock.wait();
                    }
                    ArrayDeque<Datagram> q = queues.get(conn);
                    d = q == null ? null : q.poll();
                }
                if (socket.closed()) {
                    return false;
                }
                reply(ch, d == null ? empty(windowed ? horizon.get() : 0) : deliver(d));
            }
            case 28 -> { // Lease, as the windowed broker: held until a datagram or (not blocking) the horizon passes vt
                addr(m);
                int mode = m.get();
                long vt = m.getLong();
                leases.incrementAndGet();
                Datagram d;
                synchronized (lock) {
                    while (!socket.closed() && queues.containsKey(conn) && queues.get(conn).isEmpty()
                            && (mode == 2 || Long.compareUnsigned(horizon.get(), vt) < 0)) {
                        lock.wait();
                    }
                    ArrayDeque<Datagram> q = queues.get(conn);
                    d = q == null ? null : q.poll();
                }
                if (socket.closed()) {
                    return false;
                }
                // Leased{until 0 (this fake promises nothing), vt}
                reply(ch, d == null ? ByteBuffer.allocate(17).order(ByteOrder.LITTLE_ENDIAN).put((byte) 14).putLong(0)
                        .putLong(vt) : deliver(d));
            }
            case 6 -> goodbyes.incrementAndGet(); // no reply
            default -> {
                return false;
            }
        }
        return true;
    }

    private static Addr addr(ByteBuffer m) {
        return new Addr(m.getInt(), Short.toUnsignedInt(m.getShort()));
    }

    private static ByteBuffer ack() {
        return ByteBuffer.allocate(9).order(ByteOrder.LITTLE_ENDIAN).put((byte) 1).putLong(0);
    }

    private static ByteBuffer empty(long vt) {
        return ByteBuffer.allocate(9).order(ByteOrder.LITTLE_ENDIAN).put((byte) 3).putLong(vt);
    }

    private static ByteBuffer deliver(Datagram d) {
        ByteBuffer b = ByteBuffer.allocate(1 + 12 + 4 + d.payload().length + 8).order(ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 2).putInt(d.src().ip()).putShort((short) d.src().port()).putInt(d.dst().ip())
                .putShort((short) d.dst().port()).putInt(d.payload().length).put(d.payload()).putLong(d.vt());
        return b;
    }

    private static void reply(SocketChannel ch, ByteBuffer body) throws IOException {
        WireFrames.write(ch, body);
    }

    /** Stops serving: every connection is closed, so waiting shims see the broker go away. */
    @Override
    public void close() throws IOException {
        socket.close();
        synchronized (lock) {
            lock.notifyAll(); // held receives and leases see the broker closed
        }
    }
}
