package dev.weft.replay.bench;

import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.replay.ReplayStepper;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The replay step alone (core, payload handling and the replayed-vs-recorded comparison), without reading: the
 * records are read into memory first, then stepped {@code --runs} times on fresh steppers, on this one thread.
 * Prints the thread's CPU time and the bytes it allocated per pass; the allocation figure does not depend on the
 * machine's load. A main, not a test. Usage: StepperBenchmark [--runs N] LOG
 */
public final class StepperBenchmark {

    private StepperBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 5;
        int i = 0;
        if (args[i].equals("--runs")) {
            runs = Integer.parseInt(args[i + 1]);
            i += 2;
        }
        Path log = Path.of(args[i]);
        List<LogRecord> records = new ArrayList<>();
        dev.weft.log.LogHeader header;
        try (LogReader r = LogReader.open(log)) {
            header = r.header();
            LogRecord rec;
            while ((rec = r.next()) != null) {
                records.add(rec);
            }
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        for (int run = 1; run <= runs; run++) {
            ReplayStepper stepper = ReplayStepper.create(header, List.of());
            long cpu0 = threads.getCurrentThreadCpuTime();
            long alloc0 = threads.getThreadAllocatedBytes(self);
            long differ = 0;
            for (LogRecord rec : records) {
                if (!stepper.step(rec).equals(rec.event()) || stepper.vt() != rec.vt()) {
                    differ++;
                }
            }
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            long alloc = threads.getThreadAllocatedBytes(self) - alloc0;
            System.out.printf(Locale.ROOT, "run %d: %d records stepped, %d differ, %d ms thread CPU, %.1f bytes allocated per record%n",
                    run, records.size(), differ, cpu / 1_000_000, alloc / (double) records.size());
        }
    }
}
