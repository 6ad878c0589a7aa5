package dev.weft.app.vm;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What the workbench remembers between runs (theme, recent files, window geometry, split positions), in a
 * small properties file in the user's config directory, written with sorted keys so it diffs cleanly.
 * A missing or unreadable file just means defaults.
 */
public final class Settings {

    public static final int MAX_RECENT = 10;

    private final Path file;
    private final TreeMap<String, String> values = new TreeMap<>();

    public Settings(Path file) {
        this.file = file;
        if (file != null && Files.isRegularFile(file)) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                p.load(r);
                for (String k : p.stringPropertyNames()) values.put(k, p.getProperty(k));
            } catch (IOException | IllegalArgumentException e) {
                values.clear();
            }
        }
    }

    /** $XDG_CONFIG_HOME/weft-workbench/workbench.properties, else ~/.config/weft-workbench/... */
    public static Path defaultFile() {
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("weft-workbench").resolve("workbench.properties");
    }

    public String get(String key, String def) {
        return values.getOrDefault(key, def);
    }

    public double getDouble(String key, double def) {
        try {
            return Double.parseDouble(values.getOrDefault(key, ""));
        } catch (NumberFormatException e) {
            return def;
        }
    }

    public void put(String key, String value) {
        if (value == null) values.remove(key);
        else values.put(key, value);
    }

    public void putDouble(String key, double v) {
        put(key, Double.toString(v));
    }

    public List<Path> recentFiles() {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < MAX_RECENT; i++) {
            String v = values.get("recent." + i);
            if (v != null) out.add(Path.of(v));
        }
        return out;
    }

    public void setRecentFiles(List<Path> files) {
        for (int i = 0; i < MAX_RECENT; i++) values.remove("recent." + i);
        for (int i = 0; i < files.size() && i < MAX_RECENT; i++) values.put("recent." + i, files.get(i).toString());
    }

    /** Writes the file; failures are reported to the caller as false (settings are a convenience). */
    public boolean save() {
        if (file == null) return true;
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                w.write("# Weft Workbench settings\n");
                for (var e : values.entrySet()) w.write(escape(e.getKey()) + "=" + escape(e.getValue()) + "\n");
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String escape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '=', ':', '#', '!' -> sb.append('\\').append(c);
                default -> {
                    if (c < 0x20 || c > 0x7E) sb.append(String.format("\\u%04x", (int) c));
                    else sb.append(c);
                }
            }
        }
        return sb.toString();
    }
}
