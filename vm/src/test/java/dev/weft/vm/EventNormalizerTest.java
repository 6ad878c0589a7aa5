package dev.weft.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class EventNormalizerTest {

    @Test
    void keepsOnlyEventLinesDropsGuestClockAndPidAndNumbersThem() {
        String console = "[    0.000000] Linux version 6.1\r\n"
                + "SF {\"p\":\"agent\",\"pid\":1,\"t\":3910353682,\"e\":\"boot\",\"seed\":42}\r\n"
                + "random kernel noise\n"
                + "SF {\"p\":\"client\",\"pid\":85,\"t\":3949778110,\"e\":\"error\",\"id\":\"r0014\",\"attempt\":1}\n"
                + "SF {\"p\":\"client\",\"pid\":85,\"t\":39497\n";
        byte[] out = EventNormalizer.toJsonl(EventNormalizer.normalize(console.getBytes(StandardCharsets.UTF_8)));
        assertEquals("{\"n\":0,\"p\":\"agent\",\"e\":\"boot\",\"seed\":42}\n"
                + "{\"n\":1,\"p\":\"client\",\"e\":\"error\",\"id\":\"r0014\",\"attempt\":1}\n"
                + "{\"n\":2,\"p\":\"?\",\"e\":\"malformed\",\"text\":\"SF {\\\"p\\\":\\\"client\\\",\\\"pid\\\":85,\\\"t\\\":39497\"}\n",
                new String(out, StandardCharsets.UTF_8));
    }

    @Test
    void differentGuestTimesAndPidsNormalizeToTheSameBytes() {
        String a = "SF {\"p\":\"server\",\"pid\":84,\"t\":1,\"e\":\"listen\",\"gen\":1}\n";
        String b = "SF {\"p\":\"server\",\"pid\":90,\"t\":7,\"e\":\"listen\",\"gen\":1}\n";
        assertEquals(new String(EventNormalizer.toJsonl(EventNormalizer.normalize(a.getBytes(StandardCharsets.UTF_8)))),
                new String(EventNormalizer.toJsonl(EventNormalizer.normalize(b.getBytes(StandardCharsets.UTF_8)))));
    }
}
