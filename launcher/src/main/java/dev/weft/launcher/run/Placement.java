package dev.weft.launcher.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which node runs where in a multi-host run: {@code --hosts A:PORT,B:PORT,…} places node i on host i mod H
 * (round-robin); {@code --place 0-2@A:PORT,3-6@B:PORT} places ranges explicitly, and nodes it does not name run on
 * this machine. Hosts are numbered 1, 2, … in the order they are first named ({@code --hosts} first), and that
 * number is each node's {@code WEFT_HOST_ID}; nodes on this machine are host 0.
 *
 * @param hosts  host agent addresses in host-id order (host id = index + 1)
 * @param hostOf host id per node id placed on an agent (absent: this machine)
 */
public record Placement(List<String> hosts, Map<Long, Long> hostOf) {
    /** Every node on this machine. */
    public static final Placement LOCAL = new Placement(List.of(), Map.of());

    public Placement {
        hosts = List.copyOf(hosts);
        hostOf = Collections.unmodifiableMap(new TreeMap<>(hostOf));
    }

    boolean isLocal() {
        return hosts.isEmpty();
    }

    /** The host id of a node: 0 for this machine. */
    long hostId(long node) {
        return hostOf.getOrDefault(node, 0L);
    }

    /** The agent address of a host id ≥ 1. */
    String address(long hostId) {
        return hosts.get((int) hostId - 1);
    }

    /** {@code 1=ADDR:nodes;2=…} — the host map, for the run's stderr summary. */
    String describe() {
        Map<Long, List<Long>> byHost = new TreeMap<>();
        hostOf.forEach((n, h) -> byHost.computeIfAbsent(h, x -> new ArrayList<>()).add(n));
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < hosts.size(); i++) {
            List<Long> ns = byHost.getOrDefault((long) i + 1, List.of());
            sb.append(i == 0 ? "" : "; ").append("host ").append(i + 1).append(" = ").append(hosts.get(i))
                    .append(": node(s) ").append(ns.isEmpty() ? "none" : join(ns));
        }
        return sb.toString();
    }

    /**
     * The header's {@code meta.hosts} (ours): host id = nodes, hosts ascending, each host's nodes ascending with
     * consecutive ids as a range, host 0 (this machine) included when it runs any of the run's {@code nodes} — e.g.
     * {@code "0=6;1=0-2;2=3-5"}. Host ids and node ids only, never addresses or ports, so two runs with the same
     * placement write the same bytes; a host given no node is left out.
     */
    String hostMap(java.util.Collection<Long> nodes) {
        Map<Long, List<Long>> byHost = new TreeMap<>();
        for (long n : new java.util.TreeSet<>(nodes)) {
            byHost.computeIfAbsent(hostId(n), x -> new ArrayList<>()).add(n);
        }
        StringBuilder sb = new StringBuilder();
        byHost.forEach((h, ns) -> sb.append(sb.length() == 0 ? "" : ";").append(h).append('=').append(ranges(ns)));
        return sb.toString();
    }

    /** Ascending ids with consecutive runs collapsed: {@code 0-2,5,7-8}. */
    private static String ranges(List<Long> ascending) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < ascending.size()) {
            int j = i;
            while (j + 1 < ascending.size() && ascending.get(j + 1) == ascending.get(j) + 1) {
                j++;
            }
            sb.append(sb.length() == 0 ? "" : ",").append(ascending.get(i));
            if (j > i) {
                sb.append('-').append(ascending.get(j));
            }
            i = j + 1;
        }
        return sb.toString();
    }

    static Placement parse(String hostsOption, String placeOption, int nodes) throws PlacementException {
        Map<String, Long> ids = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        if (hostsOption != null) {
            for (String h : split(hostsOption, "--hosts")) {
                String a = checkAddress(h, "--hosts");
                if (ids.containsKey(a)) {
                    throw new PlacementException("--hosts: " + a + " is named twice");
                }
                order.add(a);
                ids.put(a, (long) order.size());
            }
        }
        Map<Long, Long> hostOf = new TreeMap<>();
        if (placeOption == null) {
            for (long n = 0; n < nodes; n++) {
                hostOf.put(n, n % order.size() + 1);
            }
            return new Placement(order, hostOf);
        }
        for (String item : split(placeOption, "--place")) {
            int at = item.indexOf('@');
            if (at <= 0 || at == item.length() - 1) {
                throw new PlacementException("--place \"" + item + "\": expected RANGE@HOST:PORT (e.g. 0-2@10.0.0.5:7787)");
            }
            String a = checkAddress(item.substring(at + 1), "--place");
            Long id = ids.get(a);
            if (id == null) {
                order.add(a);
                id = (long) order.size();
                ids.put(a, id);
            }
            String range = item.substring(0, at);
            long from;
            long to;
            try {
                int dash = range.indexOf('-');
                from = Long.parseLong(dash < 0 ? range : range.substring(0, dash));
                to = dash < 0 ? from : Long.parseLong(range.substring(dash + 1));
            } catch (NumberFormatException e) {
                throw new PlacementException("--place \"" + item + "\": \"" + range + "\" is not a node range (N or N-M)");
            }
            if (from < 0 || to < from || to >= nodes) {
                throw new PlacementException("--place \"" + item + "\": nodes " + range + " are not within 0-"
                        + (nodes - 1) + " (--nodes " + nodes + ")");
            }
            for (long n = from; n <= to; n++) {
                if (hostOf.put(n, id) != null) {
                    throw new PlacementException("--place: node " + n + " is placed twice");
                }
            }
        }
        return new Placement(order, hostOf);
    }

    private static List<String> split(String v, String option) throws PlacementException {
        List<String> out = new ArrayList<>();
        for (String s : v.split(",", -1)) {
            if (s.isBlank()) {
                throw new PlacementException(option + " \"" + v + "\": an empty entry");
            }
            out.add(s.strip());
        }
        return out;
    }

    private static String checkAddress(String a, String option) throws PlacementException {
        try {
            RunOptions.listenAddress(a);
        } catch (RunOptions.UsageException e) {
            throw new PlacementException(option + ": host \"" + a + "\": expected PORT or HOST:PORT");
        }
        return a.contains(":") ? a : "127.0.0.1:" + a;
    }

    private static String join(List<Long> ns) {
        StringBuilder sb = new StringBuilder();
        for (Long n : ns) {
            sb.append(sb.length() == 0 ? "" : ",").append(n);
        }
        return sb.toString();
    }

    /** A bad {@code --hosts} or {@code --place}; the message names the option and the entry. */
    static final class PlacementException extends Exception {
        private static final long serialVersionUID = 1L;

        PlacementException(String message) {
            super(message);
        }
    }
}
