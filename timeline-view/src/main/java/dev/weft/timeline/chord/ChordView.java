package dev.weft.timeline.chord;

import dev.weft.chord.ChordProtocol;
import dev.weft.chord.ChordTimeline;
import dev.weft.timeline.ProtocolView;
import dev.weft.timeline.ProtocolViewContext;
import javafx.scene.layout.Region;

/** Chord in the workbench: the ring after the cursor op ({@link ChordRingView}), and a report read as Chord's. */
public final class ChordView implements ProtocolView {

    @Override public String protocol() { return ChordProtocol.NAME; }
    @Override public String title() { return "Chord ring"; }

    @Override
    public Region create(ProtocolViewContext c) {
        ChordRingView ring = new ChordRingView();
        ring.setId("chordRing");
        ring.chordProperty().set((ChordTimeline) c.result().state());
        ring.nodeNamesProperty().set(c.nodeNames());
        ring.nodeAddressesProperty().set(c.nodeAddresses());
        ring.cursorOpProperty().bind(c.cursorOp());
        ring.paletteProperty().bind(c.palette());
        return ring;
    }

    @Override
    public String describeReport(int[] f) {
        return "Chord report: ident " + f[0] + ", date " + f[1] + ", alive " + (f[2] != 0) + ", succ " + none(f[3])
                + ", succ2 " + none(f[4]) + ", pred " + none(f[5]);
    }

    private static String none(int v) {
        return v == -1 ? "none" : Integer.toString(v);
    }
}
