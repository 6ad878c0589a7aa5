package dev.weft.mutation;

import dev.weft.check.Violation;
import dev.weft.fuzz.Executor;
import dev.weft.fuzz.Op;
import dev.weft.fuzz.WorkloadGenerator;
import dev.weft.fuzz.WorkloadSpec;
import dev.weft.log.CanonicalJson;
import dev.weft.log.Event;
import dev.weft.log.Fnv1a;
import dev.weft.log.LogMeta;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.LogWriter;
import dev.weft.log.WeftLogException;
import dev.weft.net.NetSpec;
import dev.weft.replay.ReplayException;
import dev.weft.replay.ReplayOptions;
import dev.weft.replay.ReplayReport;
import dev.weft.replay.Replayer;
import dev.weft.replay.ViolationReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.GZIPOutputStream;

/**
 * weft-log files (weft-log-v2.md) through LogReader and Replayer with fifo,dup checks, as {@code weft replay} runs them.
 * Three kinds of mutant: raw (bytes anywhere, chains left as they are: the reader's syntax and order checks), re-chained
 * (one header or record line mutated, then every chain recomputed: the mutant reaches the replayer, whose divergence and
 * errors name an op) and gzip (a mutant compressed, or the compressed bytes mutated).
 */
final class LogFormat implements Format {

    private static final List<String> NETS = List.of("latency=uniform:0-8000,loss=0.02", "latency=exp:5000,bw=2000",
            "partition=0+1|2,latency=fixed:100", "");

    private final List<byte[]> seeds = new ArrayList<>();
    private final ByteMutator mutator;

    LogFormat() {
        long seed = 0;
        for (String net : NETS) seeds.add(recording(seed++, net, seed == 2 ? 1000 : 0));
        mutator = new ByteMutator(seeds, ByteMutator.bytes("{\"op\":", "\"vt\":", "\"e\":", ",\"chain\":\"0000000000000000\"",
                "\"k\":\"send\"", "\"k\":\"recv\"", "\"k\":\"connect\"", "\"k\":\"end\"", "\"k\":\"violation\"", "\"k\":\"hello\"",
                "\"k\":\"bind\"", "\"k\":\"disconnect\"", "\"outcome\":", "\"kind\":\"delivered\"", "\"kind\":\"empty\"",
                "\"kind\":\"enqueued\"", "\"kind\":\"dropped\"", "\"kind\":\"no_receiver\"", "\"payload\":\"zz\"", "\"payload\":\"\"",
                "\"send_vt\":5,", "\"window_ns\":", "\"version\":1", "\"format\":\"weft-logx\"", "\"meta\":{}",
                "\"net\":\"latency=bogus\"", "\"tie\":", "\"deliv_ns\":", "\"to_conn\":", "\"chan_seq\":", "\"blocking\":true",
                "\"ip\":4294967296", "\"port\":65536", "\"node\":4294967295", ",\"zz\":[1,{\"y\":null}]"));
    }

    /** A small recording written by our writer: a generated workload under seed and net, with its violations. */
    private static byte[] recording(long seed, String net, long windowNs) {
        try {
            List<Op> ops = WorkloadGenerator.generate(new WorkloadSpec(3, 6, 3, seed));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            LogWriter w = LogWriter.create(bytes, false, seed, net, windowNs, LogMeta.label("mutation seed " + seed));
            Executor.Execution run = Executor.execute(seed, NetSpec.parse(net), ops, List.of("fifo", "dup"), (i, vt, e, raised) -> {
                try {
                    w.append(vt, e);
                    for (Violation v : raised) w.append(vt, new Event.Violation(v.invariant(), v.message()));
                } catch (IOException x) {
                    throw new UncheckedIOException(x);
                }
            });
            w.append(run.finalVt(), new Event.End(w.count() + 1, run.sent(), run.dropped()));
            w.close();
            return bytes.toByteArray();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The i-th seed recording (for hand-made hostile variants). */
    byte[] seed(int i) {
        return seeds.get(i).clone();
    }

    @Override
    public String name() {
        return "weft-log";
    }

    @Override
    public byte[] mutant(SplittableRandom r) {
        int kind = r.nextInt(20);
        if (kind < 11) return mutator.next(r);
        if (kind < 18) return rechained(seeds.get(r.nextInt(seeds.size())), r);
        byte[] plain = r.nextBoolean() ? mutator.next(r) : seeds.get(r.nextInt(seeds.size()));
        byte[] gz = gzip(plain);
        return r.nextBoolean() ? gz : mutator.mutate(gz, r);
    }

    /** One line mutated, then every record's chain recomputed from the (possibly mutated) header on. */
    private byte[] rechained(byte[] log, SplittableRandom r) {
        List<byte[]> lines = splitLines(log);
        int target = r.nextInt(8) == 0 ? 0 : 1 + r.nextInt(lines.size() - 1);
        lines.set(target, mutator.mutate(lines.get(target), r));
        ByteArrayOutputStream out = new ByteArrayOutputStream(log.length + 64);
        byte[] header = lines.get(0);
        out.writeBytes(header);
        out.write('\n');
        long chain = Fnv1a.update(Fnv1a.OFFSET_BASIS, header, 0, header.length);
        boolean chaining = true;
        for (int i = 1; i < lines.size(); i++) {
            byte[] line = lines.get(i);
            if (chaining) {
                try {
                    LogRecord rec = LogReader.parseRecordLine(new String(line, StandardCharsets.UTF_8), i + 1);
                    byte[] canon = CanonicalJson.record(rec.op(), rec.vt(), rec.event()).getBytes(StandardCharsets.UTF_8);
                    chain = Fnv1a.update(chain, canon, 0, canon.length);
                    line = (new String(canon, 0, canon.length - 1, StandardCharsets.UTF_8) + ",\"chain\":\"" + Fnv1a.hex16(chain)
                            + "\"}").getBytes(StandardCharsets.UTF_8);
                } catch (WeftLogException e) {
                    chaining = false; // a line that does not parse: the reader stops here anyway
                }
            }
            out.writeBytes(line);
            out.write('\n');
        }
        return out.toByteArray();
    }

    private static List<byte[]> splitLines(byte[] log) {
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < log.length; i++) {
            if (log[i] == '\n') {
                lines.add(Arrays.copyOfRange(log, start, i));
                start = i + 1;
            }
        }
        if (start < log.length) lines.add(Arrays.copyOfRange(log, start, log.length));
        return lines;
    }

    private static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Override
    public String feed(byte[] input) throws Exception {
        ReplayReport report;
        try (LogReader reader = LogReader.open(new ByteArrayInputStream(input))) {
            report = Replayer.replay(reader, new ReplayOptions(null, List.of("fifo", "dup")));
        } catch (WeftLogException e) {
            if (e.line() <= 0 && e.op() < 0) throw new Unlocated(e.kind() + ": " + e.getMessage());
            if (e.getMessage().contains("\n")) throw new Unlocated("several lines: " + e.getMessage());
            return e.getMessage();
        } catch (ReplayException e) {
            boolean located = e.op() >= 0 ? e.getMessage().startsWith("op " + Long.toUnsignedString(e.op()) + ": ")
                    : e.getMessage().startsWith("log header ");
            if (!located) throw new Unlocated(e.getMessage());
            return e.getMessage();
        }
        if (report.divergence() != null) return "diverged at op " + report.divergence().op();
        // What weft replay prints for each violation must render too.
        StringBuilder sb = new StringBuilder();
        for (Violation v : report.violations()) ViolationReport.append(sb, v, report, "mutant.weftlog");
        return null;
    }
}
