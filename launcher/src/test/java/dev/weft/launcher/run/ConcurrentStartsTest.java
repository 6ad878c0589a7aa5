package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link ConcurrentStarts}: this host's nodes start together, and come back in id order with their failures. */
class ConcurrentStartsTest {
    /** A node that is never run: only its id matters here. */
    record FakeNode(long nodeId) implements RunningNode {
        @Override
        public long pid() {
            return 0;
        }

        @Override
        public boolean alive() {
            return false;
        }

        @Override
        public boolean killedOnPurpose() {
            return false;
        }

        @Override
        public void kill() {
        }

        @Override
        public void terminate() {
        }

        @Override
        public int waitFor() {
            return 0;
        }

        @Override
        public boolean waitFor(long time, TimeUnit unit) {
            return true;
        }

        @Override
        public void onExit(Runnable action) {
            action.run();
        }
    }

    @Test
    void sevenStartsAreUnderWayAtOnce() throws Exception {
        // each start returns only once all seven have begun: one after another, the first would never return
        CountDownLatch begun = new CountDownLatch(7);
        List<ConcurrentStarts.Started<FakeNode>> started = ConcurrentStarts.startAll(List.of(0L, 1L, 2L, 3L, 4L, 5L,
                6L), id -> {
                    begun.countDown();
                    try {
                        if (!begun.await(60, TimeUnit.SECONDS)) {
                            throw new IOException("node " + id + " started alone");
                        }
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    return new FakeNode(id);
                });
        assertEquals(7, started.size());
        for (int i = 0; i < 7; i++) {
            ConcurrentStarts.Started<FakeNode> s = started.get(i);
            assertNull(s.failure(), () -> s.failure().getMessage());
            assertEquals(i, s.nodeId());
            assertEquals(i, s.process().nodeId());
        }
    }

    @Test
    void resultsComeInTheOrderAskedWithEachFailureAtItsNode() throws Exception {
        IOException refused = new IOException("no such program");
        List<ConcurrentStarts.Started<FakeNode>> started = ConcurrentStarts.startAll(List.of(5L, 2L, 9L), id -> {
            if (id == 2) {
                throw refused;
            }
            return new FakeNode(id);
        });
        assertEquals(List.of(5L, 2L, 9L), started.stream().map(ConcurrentStarts.Started::nodeId).toList());
        assertEquals(5, started.get(0).process().nodeId());
        assertNull(started.get(1).process());
        assertSame(refused, started.get(1).failure());
        assertEquals(9, started.get(2).process().nodeId());
        assertTrue(ConcurrentStarts.startAll(List.of(), id -> new FakeNode(id)).isEmpty());
    }
}
