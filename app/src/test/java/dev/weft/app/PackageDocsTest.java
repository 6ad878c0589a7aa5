package dev.weft.app;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every package of every module says what it is for in a package-info.java. Lives in the app module because the app
 * is built last: from here the whole checkout ({@code ..}) is in view.
 */
class PackageDocsTest {

    @Test
    void everyMainPackageHasAPackageInfo() throws IOException {
        TreeSet<String> packages = new TreeSet<>();
        TreeSet<String> undocumented = new TreeSet<>();
        try (Stream<Path> modules = Files.list(Path.of(".."))) {
            for (Path module : modules.sorted().toList()) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isDirectory(sources)) continue;
                for (Path dir : javaPackageDirs(sources)) {
                    String name = module.getFileName() + ": " + sources.relativize(dir).toString().replace('/', '.');
                    packages.add(name);
                    if (!Files.exists(dir.resolve("package-info.java"))) undocumented.add(name);
                }
            }
        }
        // Guards against a vacuous pass: the walk must have seen the modules' packages.
        assertTrue(packages.size() > 40, "packages seen: " + packages);
        assertEquals(new TreeSet<String>(), undocumented, "packages without a package-info.java");
    }

    private static List<Path> javaPackageDirs(Path sources) throws IOException {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(p -> p.toString().endsWith(".java")).map(Path::getParent).distinct().sorted().toList();
        }
    }
}
