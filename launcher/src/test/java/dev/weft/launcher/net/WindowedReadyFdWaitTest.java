package dev.weft.launcher.net;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.launcher.run.CompiledProgram;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Windowed runs (docs/shim.md "TCP", windowed): a poll, select or epoll_wait without a timeout on a simulated TCP
 * listener and an ordinary fd that is ready already returns at once, asking the broker about the socket at once
 * instead of holding a TcpWait for it; held and taken back, that wait came after the broker had sealed the peer's
 * connect, and the run was discarded as a late op (netcat polls its socket with stdin at EOF).
 * shim-native/tests/tcp_window_ready.c is the program; its client is node 0 so that the server's first waits come
 * after the connect is buffered (the failure is certain without the fix, not a race).
 */
class WindowedReadyFdWaitTest {
    @TempDir
    Path dir;

    @RegisterExtension
    static final CompiledProgram PROGRAM = new CompiledProgram("shim-native/tests/tcp_window_ready.c");

    @ParameterizedTest
    @ValueSource(strings = {"poll", "select", "epoll"})
    void aWaitWithAReadyOrdinaryFdIsAskedAtOnceAndTheRunIsAFunctionOfTheSeed(String waits) throws Exception {
        Path s = dir.resolve("ready.json");
        Files.writeString(s, """
                {"name": "ready fd", "seed": 11,
                 "nodes": [{"node_id": 0, "program": "%1$s", "args": ["client"]},
                           {"node_id": 1, "program": "%1$s", "args": ["server", "%2$s"]}],
                 "network": {"latency": "uniform:2000-10000"},
                 "end_when_exited": [0, 1],
                 "events": []}
                """.formatted(PROGRAM.path(), waits));
        WindowedTwice.record(s, dir.resolve(waits), 60, (o, log) -> {
            assertTrue(o.stdout().contains("[n1] the ready pipe ended 10 of 10 waits at once; the listener was ready"
                    + " in 0\n"), o.stdout() + o.stderr());
            assertTrue(o.stdout().contains("[n1] server read \"hello\""), o.stdout() + o.stderr());
        });
    }
}
