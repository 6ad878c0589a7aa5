package dev.weft.launcher.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** Issue 28 item 9: {@code --listen 0.0.0.0:P} is announced as 0.0.0.0:P, not 0:0:0:0:0:0:0:0:P. */
class AddressTextTest {
    @Test
    void aWildcardIsShownAsTheUserWroteIt() throws Exception {
        InetSocketAddress asked = RunOptions.listenAddress("0.0.0.0:0");
        try (ServerSocket s = new ServerSocket()) {
            s.bind(asked);
            InetSocketAddress bound = (InetSocketAddress) s.getLocalSocketAddress();
            assertEquals("0.0.0.0:" + bound.getPort(), AddressText.of(asked, bound));
        }
        InetSocketAddress v6any = new InetSocketAddress(InetAddress.getByName("::"), 7000);
        assertEquals("[::]:7000", AddressText.of(null, v6any));
        assertEquals("[::1]:7000", AddressText.of(null, new InetSocketAddress(InetAddress.getByName("::1"), 7000)));
        assertEquals("[fe80::1:2:3:4]:9", AddressText.of(null, new InetSocketAddress(InetAddress.getByName("fe80::1:2:3:4"), 9)));
        assertEquals("127.0.0.1:5", AddressText.of(null, new InetSocketAddress("127.0.0.1", 5)));
    }
}
