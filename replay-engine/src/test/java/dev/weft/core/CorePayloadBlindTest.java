package dev.weft.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.log.RecvOutcome;
import dev.weft.log.VAddr;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A payload-blind core (the fuzz sweep's) behaves exactly like a full one — chan_seq, fates (which see payload
 * lengths), ties, deliveries, vt — except that its deliveries carry no payload bytes.
 */
class CorePayloadBlindTest {

    @Test
    void everyOutcomeMatchesAFullCoresWithThePayloadLeftOut() throws Exception {
        for (RandomTraffic traffic : RandomTraffic.seeds(20)) {
            Core full = new Core(traffic.fault());
            Core blind = Core.withoutPayloads(traffic.fault());
            Random rnd = traffic.rnd();
            RandomTraffic.connectNodes(full, blind);
            for (int i = 0; i < 400; i++) {
                int conn = traffic.anyNode();
                if (rnd.nextInt(3) == 0) {
                    RecvOutcome a = full.recv(conn);
                    RecvOutcome b = blind.recv(conn);
                    if (a instanceof RecvOutcome.Delivered d) {
                        a = new RecvOutcome.Delivered(d.src(), d.dst(), d.delivNs(), d.tie(), "");
                    }
                    assertEquals(a, b, "seed " + traffic.seed() + " op " + i);
                } else {
                    byte[] payload = new byte[1 + rnd.nextInt(3000)];
                    rnd.nextBytes(payload);
                    VAddr src = RandomTraffic.node(conn);
                    VAddr dst = RandomTraffic.node(traffic.anyNode());
                    assertEquals(full.send(src, dst, payload, i * 10L), blind.send(src, dst, payload, i * 10L));
                }
                assertEquals(full.vt(), blind.vt());
            }
        }
    }
}
