package dev.weft.app.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.weft.history.HistoryModel;
import dev.weft.history.HistoryReader;
import dev.weft.timeline.TimelineModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryLaneViewModelTest {

    private static final String STALE = """
            {"node":0,"process":0,"type":"invoke","f":"write","value":3,"time":100}
            {"node":0,"process":0,"type":"ok","f":"write","time":200}
            {"node":1,"process":0,"type":"invoke","f":"read","time":300}
            {"node":1,"process":0,"type":"ok","f":"read","value":null,"time":100000}
            {"node":0,"process":1,"type":"invoke","f":"write","value":4,"time":150}
            """;

    @Test
    void noHistoryBesideTheRecordingMeansNoTab(@TempDir Path dir) {
        assertNull(HistoryLaneViewModel.load(dir.resolve("x.weftlog"), TimelineModel.empty()));
    }

    @Test
    void findingsRowsClientsAndAnAxisOfInstants(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("x.history.jsonl"), STALE);
        HistoryLaneViewModel vm = HistoryLaneViewModel.load(dir.resolve("x.weftlog"), TimelineModel.empty());
        assertEquals(HistoryModel.CAS_REGISTER, vm.model());
        assertEquals("VIOLATION — 1 object not linearizable", vm.verdict());
        assertEquals(List.of("node 0 process 0", "node 0 process 1", "node 1 process 0"), vm.clients());
        // the write of 3 and the read are the finding; the indeterminate write of 4 is not
        assertEquals(List.of("write 3", "read → null"), vm.rowsOf(0).stream().map(HistoryLaneViewModel.Row::what).toList());
        assertEquals(List.of(0, 1, 2), vm.rows().stream().map(HistoryLaneViewModel.Row::client).toList());
        // instants 100, 150, 200, 300, 100000: one step each, whatever the gaps
        assertEquals(0.0, vm.position(100));
        assertEquals(0.75, vm.position(300));
        assertEquals(1.0, vm.position(100000));
        assertEquals(0.875, vm.position(50150));
    }

    @Test
    void anUnreadableHistoryIsShownAsItsProblem(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("x.history.jsonl"), "{\"process\":0}\n");
        HistoryLaneViewModel vm = HistoryLaneViewModel.load(dir.resolve("x.weftlog"), TimelineModel.empty());
        assertEquals(dir.resolve("x.history.jsonl") + ":1: missing \"type\"", vm.problem());
    }

    @Test
    void theModelIsInferredFromTheOperations() throws Exception {
        assertEquals(HistoryModel.LIST_APPEND, HistoryLaneViewModel.inferModel(HistoryReader.parse("h",
                "{\"process\":0,\"type\":\"invoke\",\"f\":\"append\",\"key\":\"x\",\"value\":1,\"time\":1}"
                        .getBytes(StandardCharsets.UTF_8))));
        assertEquals(HistoryModel.KV, HistoryLaneViewModel.inferModel(HistoryReader.parse("h",
                "{\"process\":0,\"type\":\"invoke\",\"f\":\"read\",\"key\":\"x\",\"time\":1}"
                        .getBytes(StandardCharsets.UTF_8))));
        assertEquals(HistoryModel.SET, HistoryLaneViewModel.inferModel(HistoryReader.parse("h",
                "{\"process\":0,\"type\":\"invoke\",\"f\":\"add\",\"value\":1,\"time\":1}"
                        .getBytes(StandardCharsets.UTF_8))));
    }
}
