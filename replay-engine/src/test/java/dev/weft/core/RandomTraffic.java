package dev.weft.core;

import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One seed of the tests that drive cores with seeded random traffic and compare them: the fault model (latency,
 * loss, bandwidth) and the random stream that picks the operations. Three nodes; node n is connection n, bound at its
 * address on port 100.
 */
record RandomTraffic(long seed, FaultModel fault, Random rnd) {

    static final int NODES = 3;

    /** Seeds 0 .. count-1. */
    static List<RandomTraffic> seeds(int count) throws Exception {
        List<RandomTraffic> out = new ArrayList<>();
        for (long seed = 0; seed < count; seed++) {
            out.add(new RandomTraffic(seed, FaultModel.of(seed, "latency=uniform:0-8000,loss=0.1,bandwidth=1000000"),
                    new Random(seed)));
        }
        return out;
    }

    /** Node {@code n}'s address. */
    static VAddr node(int n) {
        return VAddr.ofNode(n, 100);
    }

    /** A node picked by the random stream. */
    int anyNode() {
        return rnd.nextInt(NODES);
    }

    /** Connects every node in each of {@code cores} and binds it at its address. */
    static void connectNodes(Core... cores) {
        for (int c = 0; c < NODES; c++) {
            for (Core core : cores) {
                core.connect(c);
                core.bind(c, node(c));
            }
        }
    }
}
