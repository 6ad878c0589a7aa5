package dev.weft.launcher.run;

import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A C program of this repository that a test class runs under the shim, compiled once before its tests
 * ({@link NativeFixture#compileForTest}). Registered as a static {@code @RegisterExtension}; the class is skipped
 * when the shim is not built or the program cannot be compiled.
 */
public final class CompiledProgram implements BeforeAllCallback {
    private final String source;
    private Path path;

    /** @param source the C file, relative to the repository root (e.g. {@code examples/pingpong.c}) */
    public CompiledProgram(String source) {
        this.source = source;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        NativeFixture.assumeBuilt();
        path = NativeFixture.compileForTest(source);
    }

    /** The compiled binary. */
    public Path path() {
        if (path == null) {
            throw new IllegalStateException(source + " is compiled before all tests: register it as static");
        }
        return path;
    }
}
