package dev.weft.app.vm;

import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Bookmarks with a note, kept in a sidecar file beside the recording ({@code FILE.bookmarks}, one
 * "op TAB note" line each, by op), never inside it: a recording's bytes are its identity. Saved on every
 * change; a sidecar that cannot be written is reported, not thrown.
 */
public final class Bookmarks {

    /** One bookmark. */
    public record Bookmark(int op, String note) { }

    private final Path sidecar;
    private final ObservableList<Bookmark> items = FXCollections.observableArrayList();
    private String lastError = "";

    public Bookmarks(Path recording) {
        this.sidecar = recording == null ? null : recording.resolveSibling(recording.getFileName() + ".bookmarks");
        load();
    }

    public static Path sidecarOf(Path recording) {
        return recording.resolveSibling(recording.getFileName() + ".bookmarks");
    }

    public ObservableList<Bookmark> items() { return items; }
    public String lastError() { return lastError; }

    /** Sorted ops, for the timeline's flags. */
    public int[] ops() {
        return items.stream().mapToInt(Bookmark::op).sorted().toArray();
    }

    /** Adds (or replaces the note of) the bookmark at op. */
    public void put(int op, String note) {
        List<Bookmark> list = new ArrayList<>(items);
        list.removeIf(b -> b.op() == op);
        list.add(new Bookmark(op, note == null ? "" : note.replace('\t', ' ').replace('\n', ' ')));
        list.sort(Comparator.comparingInt(Bookmark::op));
        items.setAll(list);
        save();
    }

    public void remove(int op) {
        if (items.removeIf(b -> b.op() == op)) save();
    }

    private void load() {
        if (sidecar == null || !Files.isRegularFile(sidecar)) return;
        try {
            List<Bookmark> list = new ArrayList<>();
            for (String line : Files.readAllLines(sidecar, StandardCharsets.UTF_8)) {
                int tab = line.indexOf('\t');
                String op = tab < 0 ? line : line.substring(0, tab);
                if (!op.matches("[0-9]{1,10}")) continue;   // a hand-edited line we cannot read is skipped
                list.add(new Bookmark(Integer.parseInt(op), tab < 0 ? "" : line.substring(tab + 1)));
            }
            list.sort(Comparator.comparingInt(Bookmark::op));
            items.setAll(list);
        } catch (IOException | NumberFormatException e) {
            lastError = "cannot read bookmarks " + sidecar + ": " + e.getMessage();
        }
    }

    private void save() {
        if (sidecar == null) return;
        StringBuilder sb = new StringBuilder();
        for (Bookmark b : items) sb.append(b.op()).append('\t').append(b.note()).append('\n');
        try {
            if (items.isEmpty()) Files.deleteIfExists(sidecar);
            else Files.writeString(sidecar, sb.toString(), StandardCharsets.UTF_8);
            lastError = "";
        } catch (IOException e) {
            lastError = "cannot save bookmarks to " + sidecar + ": " + e.getMessage();
        }
    }
}
