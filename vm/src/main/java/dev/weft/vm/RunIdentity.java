package dev.weft.vm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.vm.qemu.MachineDefinition;
import dev.weft.vm.qemu.QemuInstallation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Everything a QEMU replay log is bound to: the QEMU build (version line and binary digest), its firmware,
 * the kernel and initramfs (digests), the kernel command line, the machine options, the seed and the choice
 * plan's digest. A replay compares the identity of its own environment with the recorded one member by member.
 */
public record RunIdentity(ObjectNode json) {

    public static RunIdentity of(QemuInstallation qemu, GuestImage guest, String vmlinuxSha256, String initramfsSha256,
            String append, long seed, String choicePlanSha256) {
        ObjectNode id = Json.MAPPER.createObjectNode();
        ObjectNode q = id.putObject("qemu");
        q.put("version", qemu.version());
        q.put("binary_sha256", qemu.binarySha256());
        ObjectNode fw = id.putObject("firmware");
        for (QemuInstallation.Firmware f : qemu.firmware()) {
            fw.put(f.name(), f.sha256());
        }
        ObjectNode k = id.putObject("kernel");
        k.put("package", guest.kernelPackage());
        k.put("version", guest.kernelVersion());
        k.put("vmlinux_sha256", vmlinuxSha256);
        id.putObject("initramfs").put("sha256", initramfsSha256);
        id.put("append", append);
        ArrayNode machine = id.putArray("machine");
        MachineDefinition.OPTIONS.forEach(machine::add);
        machine.add("-icount");
        machine.add(MachineDefinition.ICOUNT);
        id.put("seed", Long.toUnsignedString(seed));
        id.put("choice_plan_sha256", choicePlanSha256);
        return new RunIdentity(id);
    }

    /** Human-readable differences, "path: recorded X, now Y", in member order; empty when identical. */
    public List<String> differences(JsonNode recorded) {
        List<String> out = new ArrayList<>();
        diff("", recorded, json, out);
        return out;
    }

    private static void diff(String path, JsonNode recorded, JsonNode now, List<String> out) {
        if (recorded != null && now != null && recorded.isObject() && now.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = now.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                diff(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), recorded.get(e.getKey()), e.getValue(), out);
            }
            for (Iterator<String> it = recorded.fieldNames(); it.hasNext();) {
                String name = it.next();
                if (!now.has(name)) {
                    out.add((path.isEmpty() ? name : path + "." + name) + ": recorded " + text(recorded.get(name)) + ", now absent");
                }
            }
            return;
        }
        if (recorded == null || !recorded.equals(now)) {
            out.add(path + ": recorded " + (recorded == null ? "nothing" : text(recorded)) + ", now " + text(now));
        }
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? "'" + n.asText() + "'" : Json.compact(n);
    }
}
