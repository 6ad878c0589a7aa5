package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.VAddr;
import org.junit.jupiter.api.Test;

/** The net spec's {@code tcp_stall} key and the stream fates (docs/tcp.md). */
class TcpNetSpecTest {

    @Test
    void tcpStallDefaultsTo30SecondsAndParsesNanoseconds() throws Exception {
        assertEquals(30_000_000_000L, NetSpec.parse("latency=fixed:5").tcpStallNs());
        assertEquals(5_000_000_000L, NetSpec.parse("latency=fixed:5, tcp_stall=5000000000").tcpStallNs());
        assertEquals(NetSpec.parse("latency=fixed:5"), new NetSpec(new Latency.Fixed(5), 0.0, 0, java.util.List.of()));
    }

    @Test
    void aBadTcpStallIsOneClearError() {
        NetSpecException e = assertThrows(NetSpecException.class, () -> NetSpec.parse("tcp_stall=30s"));
        assertEquals(NetSpecException.Kind.INVALID_TCP_STALL, e.kind());
        assertEquals("tcp_stall \"30s\" is not an integer (nanoseconds)", e.getMessage());
    }

    @Test
    void streamFatesAreAFunctionOfTheirKeyAndTheSeed() throws Exception {
        FaultModel a = FaultModel.of(3, "latency=uniform:0-1000000000,loss=0.5");
        FaultModel b = FaultModel.of(3, "latency=uniform:0-1000000000,loss=0.5");
        FaultModel c = FaultModel.of(4, "latency=uniform:0-1000000000,loss=0.5");
        int differ = 0, lost = 0, otherStream = 0, otherDirection = 0, otherAttempt = 0;
        for (long i = 0; i < 200; i++) {
            assertEquals(a.streamFate(1, null, null, 0, i, 0), b.streamFate(1, null, null, 0, i, 0));
            if (!a.streamFate(1, null, null, 0, i, 0).equals(c.streamFate(1, null, null, 0, i, 0))) differ++;
            if (a.streamFate(1, null, null, 0, i, 0).dropped()) lost++;
            if (!a.streamFate(1, null, null, 0, i, 0).equals(a.streamFate(2, null, null, 0, i, 0))) otherStream++;
            if (!a.streamFate(1, null, null, 0, i, 0).equals(a.streamFate(1, null, null, 1, i, 0))) otherDirection++;
            if (!a.streamFate(1, null, null, 0, i, 0).equals(a.streamFate(1, null, null, 0, i, 1))) otherAttempt++;
        }
        assertTrue(otherStream > 80 && otherDirection > 80 && otherAttempt > 80,
                "each key member draws apart: " + otherStream + " " + otherDirection + " " + otherAttempt);
        assertTrue(differ > 150, "another seed, other fates: " + differ);
        assertTrue(lost > 70 && lost < 130, "loss 0.5: " + lost);
    }

    @Test
    void datagramFatesDoNotDependOnStreams() throws Exception {
        // The datagram derivation is untouched: its vector values stay those of the spec (FaultModelVectorsTest);
        // here, a stream fate with the datagram's numbers is not the datagram's fate.
        FaultModel m = FaultModel.of(3, "latency=uniform:0-1000000000");
        VAddr s = new VAddr(1, 0), d = new VAddr(0, 1);
        assertNotEquals(m.fate(s, d, 0, 0), m.streamFate(1, null, null, 0, 0, 0));
    }
}
