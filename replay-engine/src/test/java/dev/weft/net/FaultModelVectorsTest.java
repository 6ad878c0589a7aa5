package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.log.VAddr;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The vectors of net-and-fault-model.md §2 and §4, produced by the reference. */
class FaultModelVectorsTest {

    private static final VAddr SRC = new VAddr(2130706434L, 100); // 127.0.0.2:100
    private static final VAddr DST = new VAddr(2130706433L, 100); // 127.0.0.1:100

    @Test
    void splitMixFromZero() {
        assertEquals(0xe220a8397b1dcdafL, new SplitMix64(0).next());
        SplitMix64 r = new SplitMix64(0);
        r.next();
        assertEquals(SplitMix64.GAMMA, r.state());
        assertEquals(SplitMix64.mix(2 * SplitMix64.GAMMA), r.next());
    }

    @Test
    void channelStreamStepTrace() {
        // The trace of §4 step by step: x0, then after each absorbed value.
        long x = 0 ^ 0x517CC1B727220A95L;
        assertEquals(0x517cc1b727220a95L, x);
        long[] values = {2130706434L, 100, 2130706433L, 100, 0};
        long[] expected = {0x764261c3298b351cL, 0xdd5032c8d94b6a8fL, 0xe064c343db3e743dL, 0x95f3760f97ae2683L,
                0x02adf1c4befe3a87L};
        for (int i = 0; i < values.length; i++) {
            x = SplitMix64.mix((x ^ (values[i] * SplitMix64.GAMMA)) + SplitMix64.GAMMA);
            assertEquals(expected[i], x, "after value " + i);
        }
        long c = FaultModel.channelState(0, SRC, DST, 0);
        assertEquals(0x02adf1c4befe3a87L, c);
        long first = SplitMix64.mix(c + SplitMix64.GAMMA);
        long second = SplitMix64.mix(c + 2 * SplitMix64.GAMMA);
        assertEquals(0x3e4d519ec660eb07L, first);
        assertEquals(0xedc7d6dc0a5f4fd5L, second);
        assertEquals(0.24336729170170524, FaultModel.unit(first));
        assertEquals(0.9288305556495945, FaultModel.unit(second));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "latency=uniform:1000-100000; 92954",
            "latency=exp:5000; 13213",
            "latency=fixed:250,bw=3000; 1333583",
    })
    void delaysForTheSameSecondDeviate(String net, long expectedDelay) throws Exception {
        FaultModel.Fate fate = FaultModel.of(0, net).fate(SRC, DST, 0, 4);
        assertFalse(fate.dropped());
        assertEquals(expectedDelay, fate.delayNs());
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "0; latency=uniform:1000-100000; 92954,24979,61162,59739,31010,25557",
            "7; latency=exp:5000; 10204,5671,6328,2016,939,3914",
            "3; latency=fixed:100,loss=0.5; 100,100,100,D,D,D",
            "1; latency=uniform:0-8000,loss=0.02,bw=1000000; 11048,5938,7263,7702,10696,8391",
            "9; partition=0|1; D,D,D,D,D,D",
    })
    void delaysForSequenceZeroToFive(long seed, String net, String expected) throws Exception {
        FaultModel model = FaultModel.of(seed, net);
        String[] want = expected.split(",");
        for (int seq = 0; seq < 6; seq++) {
            FaultModel.Fate fate = model.fate(SRC, DST, seq, 4);
            if (want[seq].equals("D")) {
                assertTrue(fate.dropped(), "seq " + seq + " should be dropped");
                assertEquals(0, fate.delayNs());
            } else {
                assertFalse(fate.dropped(), "seq " + seq + " should not be dropped");
                assertEquals(Long.parseLong(want[seq]), fate.delayNs(), "seq " + seq);
            }
        }
    }
}
