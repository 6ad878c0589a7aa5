package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.log.RecvOutcome;
import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A payload-blind core (the fuzz sweep's) behaves exactly like a full one — chan_seq, fates (which see payload
 * lengths), ties, deliveries, vt — except that its deliveries carry no payload bytes.
 */
class CorePayloadBlindTest {

    @Test
    void everyOutcomeMatchesAFullCoresWithThePayloadLeftOut() throws Exception {
        for (long seed = 0; seed < 20; seed++) {
            FaultModel fault = FaultModel.of(seed, "latency=uniform:0-8000,loss=0.1,bandwidth=1000000");
            Core full = new Core(fault);
            Core blind = Core.withoutPayloads(fault);
            Random rnd = new Random(seed);
            for (int c = 0; c < 3; c++) {
                for (Core core : new Core[] {full, blind}) {
                    core.connect(c);
                    core.bind(c, VAddr.ofNode(c, 100));
                }
            }
            for (int i = 0; i < 400; i++) {
                int conn = rnd.nextInt(3);
                if (rnd.nextInt(3) == 0) {
                    RecvOutcome a = full.recv(conn);
                    RecvOutcome b = blind.recv(conn);
                    if (a instanceof RecvOutcome.Delivered d) {
                        a = new RecvOutcome.Delivered(d.src(), d.dst(), d.delivNs(), d.tie(), "");
                    }
                    assertEquals(a, b, "seed " + seed + " op " + i);
                } else {
                    byte[] payload = new byte[1 + rnd.nextInt(3000)];
                    rnd.nextBytes(payload);
                    VAddr src = VAddr.ofNode(conn, 100);
                    VAddr dst = VAddr.ofNode(rnd.nextInt(3), 100);
                    assertEquals(full.send(src, dst, payload, i * 10L), blind.send(src, dst, payload, i * 10L));
                }
                assertEquals(full.vt(), blind.vt());
            }
        }
    }
}
