package dev.weft.launcher.run;

import dev.weft.broker.auth.SharedToken;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A host agent with the built shim, serving on a loopback port from a daemon thread of this JVM, what it logs kept
 * for the test to read. Registered as an extension ({@code @RegisterExtension}), it starts a fresh agent before each
 * test (skipping the test when the shim is not built) and closes it after.
 */
final class AgentInThisJvm implements BeforeEachCallback, AfterEachCallback {
    private final SharedToken token;
    private ByteArrayOutputStream logBytes;
    private HostAgent agent;

    AgentInThisJvm(SharedToken token) {
        this.token = token;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        NativeFixture.assumeBuilt();
        logBytes = new ByteArrayOutputStream();
        agent = new HostAgent(token, NativeFixture.shim(), NativeFixture.cleanEnv(),
                new PrintStream(logBytes, true, StandardCharsets.UTF_8), new InetSocketAddress("127.0.0.1", 0));
        Thread t = new Thread(agent::serve, "test-hostd");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (agent != null) {
            agent.close();
            agent = null;
        }
    }

    /** The loopback port the agent listens on. */
    int port() {
        return agent.address().getPort();
    }

    /** Everything the agent has logged so far. */
    String log() {
        return logBytes.toString(StandardCharsets.UTF_8);
    }
}
