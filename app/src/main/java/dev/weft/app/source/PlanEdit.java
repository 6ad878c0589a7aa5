package dev.weft.app.source;

import dev.weft.log.Event;
import dev.weft.log.LogReader;
import dev.weft.log.LogRecord;
import dev.weft.log.SendOutcome;
import dev.weft.log.WeftLogException;
import dev.weft.net.FaultModel;
import dev.weft.net.FaultPlan;
import dev.weft.net.FaultPlanJson;
import dev.weft.net.NetSpecException;
import dev.weft.net.Unsigned;
import dev.weft.replay.PlanExtractor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeMap;

/**
 * The plan a recording followed ({@code weft plan}'s {@link PlanExtractor}) with one datagram's fate changed: the
 * workbench's "What if?" (docs/workbench.md). Re-running the recording's command with the edited plan changes that
 * datagram and nothing else the network decides.
 */
public final class PlanEdit {

    /** What happens to the datagram in the re-run. */
    public enum Change { DROP, BASELINE, DELAY }

    /** A plan that cannot be made; the message is one line. */
    public static final class Problem extends Exception {
        public Problem(String message) {
            super(message);
        }
    }

    /** The datagram a send record sent, named as the plan names it; its payload length and recorded fate. */
    public record Datagram(FaultPlan.DatagramId id, int length, boolean dropped, long latencyNs) {
        public String text() {
            return "datagram #" + Long.toUnsignedString(id.chanSeq()) + " " + id.src().text() + " → " + id.dst().text();
        }
    }

    private PlanEdit() {
    }

    /** The datagram sent at op, or null when op is not a send that was dropped or enqueued (nothing a plan can change). */
    public static Datagram datagramAt(RecordingSource source, int op) {
        if (op < 0 || op >= source.size()) return null;
        LogRecord r = source.record(op);
        if (!(r.event() instanceof Event.Send s)) return null;
        if (s.outcome() instanceof SendOutcome.Dropped) {
            return new Datagram(PlanExtractor.idOf(s), s.payload().length() / 2, true, -1);
        }
        if (s.outcome() instanceof SendOutcome.Enqueued e) {
            return new Datagram(PlanExtractor.idOf(s), s.payload().length() / 2, false, e.delivNs() - s.sendVt());
        }
        return null;
    }

    /**
     * The document of the recording's plan with d's fate changed: dropped, at the baseline (no entry), or delayed by
     * extraNs more than it was (a dropped datagram: more than the baseline). Reads the whole recording.
     */
    public static String edited(Path log, Datagram d, Change change, long extraNs) throws Problem {
        FaultPlan followed;
        try (LogReader reader = LogReader.open(log)) {
            followed = PlanExtractor.extract(reader);
        } catch (WeftLogException e) {
            throw new Problem(log + ": " + e.getMessage());
        } catch (NetSpecException e) {
            throw new Problem(log + ": header net spec unusable: " + e.getMessage());
        } catch (PlanExtractor.Unsupported e) {
            throw new Problem(log + ": " + e.getMessage());
        } catch (IOException e) {
            throw new Problem(log + ": cannot read: " + e.getMessage());
        }
        TreeMap<FaultPlan.DatagramId, FaultModel.Fate> named = new TreeMap<>(followed.named());
        FaultModel.Fate baseline = followed.baseline(d.length());
        switch (change) {
            case DROP -> named.put(d.id(), new FaultModel.Fate(true, 0));
            case BASELINE -> named.remove(d.id());
            case DELAY -> {
                long from = d.dropped() ? baseline.delayNs() : d.latencyNs();
                named.put(d.id(), new FaultModel.Fate(false, Unsigned.saturatingAdd(from, extraNs)));
            }
        }
        // everything else the recording followed stays as it was: TCP segment trips, timed events
        return FaultPlanJson.write(new FaultPlan(followed.net(), followed.spec(), named, followed.namedSegments(),
                followed.events()));
    }
}
