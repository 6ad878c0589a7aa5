package dev.weft.broker.auth;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** The whole-handshake bound: a read waiting past it fails (the connection is closed); one ended in time stays open. */
class HandshakeDeadlineTest {

    @Test
    void aReadStillWaitingAtTheDeadlineFailsAndOneEndedInTimeKeepsItsConnection() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 2, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket peer = server.accept()) {
            HandshakeDeadline d = HandshakeDeadline.arm(peer, 200);
            assertThrows(IOException.class, () -> peer.getInputStream().read(), "the silent client's read is cut");
            assertTrue(d.expired());
            assertTrue(peer.isClosed());
            d.close();
        }
        try (ServerSocket server = new ServerSocket(0, 2, InetAddress.getLoopbackAddress());
                Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                Socket peer = server.accept()) {
            try (HandshakeDeadline d = HandshakeDeadline.arm(peer, 200)) {
                client.getOutputStream().write(7);
                assertTrue(peer.getInputStream().read() == 7);
            }
            Thread.sleep(400);
            assertFalse(peer.isClosed(), "disarmed in time: the connection stays");
        }
    }
}
