import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassFileVersion;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeTransform;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * Rewrites a jar's old class files (class file version below 61, Java 17) as version 61 with stack maps, nothing else
 * changed: the same instructions, constants and attributes. Why: the JDK's AOT cache does not link classes older
 * than Java 6 ("Unlinked class not supported by AOTClassLinking"), so picocli 4.7.7, compiled for Java 5, was loaded
 * from its jar and verified by the old verifier on every {@code weft} call that parses with it (~0.06 s CPU;
 * docs/benchmarks.md, "picocli at start-up"). Raised, its classes are verified once, when the cache is trained.
 *
 * <p>A single-file program for JDK 24+ (it uses the JDK's class-file API, {@code java.lang.classfile}), run by the
 * {@code weft} script and jpackage/build.sh where they train an AOT cache, which needs JDK 25 anyway; the Java 17
 * build does not compile it.
 *
 * <p>{@code java launcher/aot/RaiseClassVersion.java JAR}: rewrites JAR in place (through a temporary file beside
 * it) and prints how many classes it raised; a jar with no old class is left untouched.
 */
public final class RaiseClassVersion {

    private static final int JAVA_17 = ClassFile.JAVA_17_VERSION;

    private RaiseClassVersion() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: java RaiseClassVersion.java JAR");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        Path raised = jar.resolveSibling(jar.getFileName() + ".raising");
        int count;
        try (URLClassLoader jarClasses = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            // Stack maps name the common supertype of two branches: the jar's own classes are read from the jar.
            ClassFile classFile = ClassFile.of(ClassFile.StackMapsOption.GENERATE_STACK_MAPS,
                    ClassFile.ClassHierarchyResolverOption.of(ClassHierarchyResolver.ofResourceParsing(jarClasses)
                            .orElse(ClassHierarchyResolver.defaultResolver())));
            count = rewrite(jar, raised, classFile);
        }
        if (count == 0) {
            Files.delete(raised);
        } else {
            Files.move(raised, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        System.out.println(jar.getFileName() + ": " + count + " classes raised to class file version " + JAVA_17);
    }

    /** Copies every entry of jar to out, each old class raised; returns how many were. */
    private static int rewrite(Path jar, Path out, ClassFile classFile) throws IOException {
        int count = 0;
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar));
                ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(out))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                byte[] bytes = in.readAllBytes();
                if (entry.getName().endsWith(".class") && !entry.getName().endsWith("module-info.class")) {
                    ClassModel model = classFile.parse(bytes);
                    if (model.majorVersion() < JAVA_17) {
                        bytes = raise(classFile, model);
                        count++;
                    }
                }
                ZipEntry copy = new ZipEntry(entry.getName());
                copy.setTime(entry.getTime()); // the same entry times: the same jar for the same input
                zip.putNextEntry(copy);
                zip.write(bytes);
                zip.closeEntry();
            }
        }
        return count;
    }

    /** The class at version 61; every method body passes through the code builder, which writes its stack maps. */
    private static byte[] raise(ClassFile classFile, ClassModel model) {
        ClassTransform newVersion = (builder, element) -> {
            if (element instanceof ClassFileVersion) {
                builder.withVersion(JAVA_17, 0);
            } else {
                builder.with(element);
            }
        };
        return classFile.transformClass(model,
                ClassTransform.transformingMethodBodies(CodeTransform.ACCEPT_ALL).andThen(newVersion));
    }
}
