package dev.weft.launcher.campaign;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.testsupport.NativeBuild;
import java.nio.file.Files;
import java.nio.file.Path;

/** The built shim and example programs that the campaign tests run live, in this checkout's shim-native/target. */
final class LiveTargets {
    private LiveTargets() {
    }

    private static Path built() {
        return NativeBuild.root().resolve("shim-native/target");
    }

    /** The built example program {@code name}; the test is skipped unless this is Linux with the examples built. */
    static Path example(String name) {
        Path program = built().resolve("examples").resolve(name);
        assumeTrue(System.getProperty("os.name").equals("Linux"), "skipped: campaigns of live targets need Linux");
        assumeTrue(Files.isExecutable(program), "skipped: the examples were not built");
        return program;
    }

    /**
     * A campaign configuration: the built example {@code name} on {@code nodes} nodes over {@code net}, judged by
     * {@code checker} (a whole member, {@code "checker": …} or {@code "checker_command": …}), a 30 s watchdog and the
     * built shim.
     */
    static String config(String name, int nodes, String net, String checker) {
        return "{\"target\": [\"" + example(name) + "\"], \"nodes\": " + nodes + ", \"net\": \"" + net
                + "\", " + checker + ", \"watchdog_secs\": 30, \"shim\": \"" + shim() + "\"}";
    }

    /** The built shim (what a campaign configuration names as "shim"). */
    static Path shim() {
        return built().resolve("libweft_shim.so");
    }
}
