package dev.weft.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {

    @TempDir
    Path dir;

    private long filesIn(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.count();
        }
    }

    @Test
    void theTargetChangesOnlyAtCommit() throws Exception {
        Path target = dir.resolve("report.txt");
        Files.writeString(target, "old");
        try (AtomicFile f = AtomicFile.create(target)) {
            OutputStream out = f.stream();
            out.write("new content".getBytes(StandardCharsets.UTF_8));
            out.flush();
            out.close(); // a writer stacked on the stream closes it: the file must stay open until commit
            assertEquals("old", Files.readString(target));
            f.commit();
        }
        assertEquals("new content", Files.readString(target));
        assertEquals(1, filesIn(dir), "no temporary file left");
    }

    @Test
    void closingWithoutCommitKeepsThePreviousFileAndRemovesTheTemporaryOne() throws Exception {
        Path target = dir.resolve("seeds.json");
        Files.writeString(target, "[1]");
        try (AtomicFile f = AtomicFile.create(target)) {
            f.stream().write(new byte[200_000]);
        }
        assertEquals("[1]", Files.readString(target));
        assertEquals(1, filesIn(dir));
    }

    @Test
    void largeContentArrivesWhole() throws Exception {
        Path target = dir.resolve("big.bin");
        byte[] bytes = new byte[1_000_003];
        for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (i * 31);
        AtomicFile.write(target, bytes);
        assertArrayEquals(bytes, Files.readAllBytes(target));
    }

    @Test
    void aDirectoryInTheWayFailsAndLeavesNothingBehind() throws Exception {
        Path target = dir.resolve("taken");
        Files.createDirectory(target);
        assertThrows(IOException.class, () -> AtomicFile.write(target, new byte[] {1}));
        assertTrue(Files.isDirectory(target));
        assertEquals(1, filesIn(dir));
    }

    @Test
    void staleTemporaryFilesOfDeadWritersAreRemovedAndLiveOnesKept() throws Exception {
        Process done = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-version")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        done.waitFor();
        Path dead = dir.resolve(".repro.weftlog." + done.pid() + "-1.weft-tmp");
        Path live = dir.resolve(".repro.weftlog." + ProcessHandle.current().pid() + "-7.weft-tmp");
        Path unrelated = dir.resolve("notes.weft-tmp");
        Files.writeString(dead, "half");
        Files.writeString(live, "half");
        Files.writeString(unrelated, "mine");
        assertEquals(1, AtomicFile.removeStale(dir));
        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(live));
        assertTrue(Files.exists(unrelated));
    }

    @Test
    void aByteBudgetStopsTheWriteThatWouldPassItAndRefundsDiscardedBytes() throws Exception {
        ByteBudget budget = new ByteBudget(1000);
        ByteBudget.Charged a = budget.charge(OutputStream.nullOutputStream());
        a.write(new byte[600]);
        ByteBudget.Charged b = budget.charge(OutputStream.nullOutputStream());
        ByteBudget.Exceeded e = assertThrows(ByteBudget.Exceeded.class, () -> b.write(new byte[401]));
        assertEquals(1000, e.limit());
        b.write(new byte[400]);
        assertEquals(1000, budget.used());
        budget.refund(b.charged());
        assertEquals(600, budget.used());
    }
}
