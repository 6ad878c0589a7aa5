package dev.weft.launcher.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * launcher/aot/RaiseClassVersion.java, which the {@code weft} script and jpackage/build.sh run on picocli's jar
 * before they train an AOT cache: every class comes out at class file version 61, and the raised classes pass the
 * split verifier (which checks the stack maps the tool wrote) when this JVM links them. It needs a JDK 24+ to run
 * (the JDK's class-file API); the test is skipped where none is installed.
 */
class RaiseClassVersionTest {

    private static final Path TOOL = Path.of("aot", "RaiseClassVersion.java").toAbsolutePath();
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    @Test
    void picocliComesOutAtJava17AndVerifies(@TempDir Path dir) throws Exception {
        Path java = jdkWithClassFileApi();
        Assumptions.assumeTrue(java != null, "no JDK 24+ under /usr/lib/jvm to run the tool with");
        Path jar = dir.resolve("picocli.jar");
        Files.copy(Path.of(CommandLine.class.getProtectionDomain().getCodeSource().getLocation().toURI()), jar);
        List<String> before = classNames(jar);
        assertTrue(before.stream().anyMatch(n -> majorVersion(jar, n) < 50), "picocli 4.7.7 is Java 5 bytecode");

        Process p = new ProcessBuilder(java.toString(), TOOL.toString(), jar.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the tool ended");
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.startsWith("picocli.jar: " + before.size() + " classes raised"), output);

        assertEquals(before, classNames(jar), "the same classes, in the same order");
        for (String name : before) {
            assertEquals(61, majorVersion(jar, name), name);
        }
        // Initialising a class links it, and linking a version 61 class runs the split verifier over its stack maps.
        try (URLClassLoader raised = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            for (String name : before) {
                Class.forName(name.replace('/', '.').replace(".class", ""), true, raised);
            }
        }
    }

    /** A JDK 24+ installed the Debian way (/usr/lib/jvm/NAME/bin/java), or null. */
    private static Path jdkWithClassFileApi() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return null;
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            for (Path home : homes.sorted().toList()) {
                Path release = home.resolve("release");
                Path java = home.resolve("bin/java");
                if (Files.isReadable(release) && Files.isExecutable(java)) {
                    Matcher m = JAVA_VERSION.matcher(Files.readString(release));
                    if (m.find() && Integer.parseInt(m.group(1)) >= 24) {
                        return java;
                    }
                }
            }
        }
        return null;
    }

    /** The jar's class files (module-info aside), in entry order. */
    private static List<String> classNames(Path jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().endsWith(".class") && !e.getName().endsWith("module-info.class")) {
                    names.add(e.getName());
                }
            }
        }
        return names;
    }

    private static int majorVersion(Path jar, String entry) {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                if (e.getName().equals(entry)) {
                    byte[] head = in.readNBytes(8);
                    return ((head[6] & 0xff) << 8) | (head[7] & 0xff);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException(entry + " not in " + jar);
    }
}
