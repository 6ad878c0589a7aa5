package dev.weft.findings;

import dev.weft.history.EventType;
import dev.weft.history.HistoryCheck;
import dev.weft.history.HistoryEvent;
import dev.weft.history.HistoryFile;
import dev.weft.history.HistoryFormatException;
import dev.weft.history.HistoryModel;
import dev.weft.history.HistoryReader;
import dev.weft.history.OpFunction;
import dev.weft.history.Operation;
import dev.weft.history.Operations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.IntToLongFunction;
import java.util.function.LongToIntFunction;
import java.util.stream.Collectors;

/**
 * The client history {@code weft run} wrote beside a recording (docs/history.md), judged with the model its
 * operations imply, and its findings placed on the recording's ops. One rule for the workbench and {@code weft
 * explain}, so both rank the same history finding at the same op.
 */
public final class RecordingHistory {

    /** Invariant names of history findings start with this ({@code history:set}), as campaign checkers do. */
    public static final String PREFIX = "history:";

    private final Path file;
    private final HistoryModel model;
    private final HistoryCheck.Verdict verdict;
    private final List<Operation> operations;
    /** Per operation: the finding it belongs to (the first that holds it), or -1; and whether its words name it. */
    private final int[] findingOf;
    private final boolean[] named;

    /**
     * @param file       the history file
     * @param model      the model inferred from its operations
     * @param verdict    the checker's verdict (its report text and findings)
     * @param operations every operation, in invocation order
     */
    public RecordingHistory(Path file, HistoryModel model, HistoryCheck.Verdict verdict, List<Operation> operations) {
        this.file = file;
        this.model = model;
        this.verdict = verdict;
        this.operations = List.copyOf(operations);
        findingOf = new int[this.operations.size()];
        named = new boolean[this.operations.size()];
        // an operation is known by its invocation's line; sets only answer membership, so their order never shows
        List<Set<Integer>> held = new ArrayList<>(), words = new ArrayList<>();
        for (dev.weft.history.Finding f : verdict.findings()) {
            held.add(f.operations().stream().map(Operation::invokeLine).collect(Collectors.toSet()));
            words.add(f.named().stream().map(Operation::invokeLine).collect(Collectors.toSet()));
        }
        for (int i = 0; i < findingOf.length; i++) {
            int line = this.operations.get(i).invokeLine();
            findingOf[i] = -1;
            for (int f = 0; f < held.size() && findingOf[i] < 0; f++) {
                if (held.get(f).contains(line)) {
                    findingOf[i] = f;
                    named[i] = words.get(f).isEmpty() || words.get(f).contains(line);
                }
            }
        }
    }

    public Path file() { return file; }

    public HistoryModel model() { return model; }

    public HistoryCheck.Verdict verdict() { return verdict; }

    /** Every operation, in invocation order. */
    public List<Operation> operations() { return operations; }

    /**
     * The history beside {@code recording}, read and checked, or null when there is none.
     *
     * @throws HistoryFormatException when the file cannot be read (the message is one line naming file and line)
     */
    public static RecordingHistory beside(Path recording) throws HistoryFormatException {
        Path file = HistoryFile.beside(recording);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        List<HistoryEvent> events = HistoryReader.read(file);
        HistoryModel model = inferModel(events);
        HistoryCheck.Verdict v = HistoryCheck.check(file.getFileName().toString(), events, model);
        return new RecordingHistory(file, model, v, Operations.pair(file.toString(), events).operations());
    }

    /**
     * The model a history's operations imply (the file does not name one): list-append if it appends, set if it
     * adds, kv if its operations name keys, else cas-register (which judges read/write histories as a register).
     */
    public static HistoryModel inferModel(List<HistoryEvent> events) {
        boolean keys = false;
        for (HistoryEvent e : events) {
            if (e.f() == OpFunction.APPEND) {
                return HistoryModel.LIST_APPEND;
            }
            if (e.f() == OpFunction.ADD) {
                return HistoryModel.SET;
            }
            keys |= e.key() != null && e.type() == EventType.INVOKE;
        }
        return keys ? HistoryModel.KV : HistoryModel.CAS_REGISTER;
    }

    /** The checker's findings, in its order. */
    public List<dev.weft.history.Finding> findings() {
        return verdict.findings();
    }

    /** The finding operation {@code i} belongs to (the first that holds it), or -1. */
    public int findingOf(int i) {
        return findingOf[i];
    }

    /**
     * Whether operation {@code i} is one its finding's words name (the lost add and the read that misses it; every
     * operation of a finding that names none). False for an operation of no finding.
     */
    public boolean named(int i) {
        return named[i];
    }

    /** The operation that stands for finding {@code f} on the recording: its last named one, or -1. */
    public int shownOperation(int f) {
        int last = -1;
        for (int i = 0; i < operations.size(); i++) {
            if (findingOf[i] == f && named[i]) last = i;
        }
        return last;
    }

    /**
     * The recording's op where operation {@code op} went out: for a client of a node that speaks TCP, its node's
     * first TCP write or connect made at or after the invocation ({@link TcpSends}); otherwise the first op whose vt
     * is at or after the invocation (an approximation in plain runs, whose record times are the broker's).
     *
     * @param firstOpNotBeforeVt the first op at or after a virtual time (may be {@code size})
     * @param size               records in the recording
     */
    public static int placeOperation(Operation op, TcpSends sends, LongToIntFunction firstOpNotBeforeVt, int size) {
        if (size == 0) return 0;
        long node = nodeOf(op.client());
        int sent = node < 0 ? -1 : sends.firstAtOrAfter(node, op.invokeTime());
        return sent >= 0 ? sent : Math.min(size - 1, firstOpNotBeforeVt.applyAsInt(op.invokeTime()));
    }

    /**
     * The findings as ranked findings: kind history, invariant {@code history:MODEL} (a campaign's checker name),
     * placed at the op of the operation that stands for each ({@link #shownOperation}; op 0 when none does), the
     * checker's headline as message; in the checker's order. None for an empty recording.
     *
     * @param opOf the recording's op of operation {@code i} (see {@link #placeOperation})
     * @param vtOf the virtual time of an op
     */
    public List<Finding> asFindings(java.util.function.IntUnaryOperator opOf, IntToLongFunction vtOf, int size) {
        if (size == 0) return List.of();
        List<Finding> out = new ArrayList<>();
        for (int f = 0; f < findings().size(); f++) {
            int shown = shownOperation(f);
            int op = shown < 0 ? 0 : Math.max(0, opOf.applyAsInt(shown));
            out.add(Finding.of(PREFIX + model.word(), op, vtOf.applyAsLong(op), findings().get(f).headline(),
                    Finding.Origin.CHECKER));
        }
        return List.copyOf(out);
    }

    /** The node of a client named "node N process P", or -1 for a client of no node. */
    public static long nodeOf(String client) {
        return client.startsWith("node ") ? Long.parseLong(client.split(" ")[1]) : -1;
    }
}
