package dev.weft.timeline.raft;

import dev.weft.raft.RaftProtocol;
import dev.weft.raft.RaftTimeline;
import dev.weft.timeline.ProtocolView;
import dev.weft.timeline.ProtocolViewContext;
import javafx.scene.layout.Region;

/** Raft in the workbench: the terms over the run ({@link RaftTermsView}), and a report read as Raft's. */
public final class RaftView implements ProtocolView {

    @Override public String protocol() { return RaftProtocol.NAME; }
    @Override public String title() { return "Raft terms"; }

    @Override
    public Region create(ProtocolViewContext c) {
        RaftTermsView terms = new RaftTermsView();
        terms.setId("raftTerms");
        terms.reportsProperty().set(c.reports());
        terms.raftProperty().set((RaftTimeline) c.result().state());
        terms.cursorOpProperty().bind(c.cursorOp());
        terms.paletteProperty().bind(c.palette());
        return terms;
    }

    @Override
    public String describeReport(int[] f) {
        return "Raft report: node " + f[0] + ", date " + f[1] + ", alive " + (f[2] != 0) + ", term " + f[3]
                + ", role " + role(f[4]) + ", votedFor " + (f[5] == -1 ? "none" : Integer.toString(f[5]));
    }

    private static String role(int r) {
        return switch (r) {
            case 0 -> "follower";
            case 1 -> "candidate";
            case 2 -> "leader";
            default -> Integer.toString(r);
        };
    }
}
