package dev.weft.mutation;

import dev.weft.log.VAddr;
import dev.weft.net.FaultModel;
import dev.weft.net.NetSpec;
import dev.weft.net.NetSpecException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Net specs (net-and-fault-model.md §1): NetSpec.parse, then a few fates drawn from the parsed model. */
final class NetSpecFormat extends SeededFormat {

    /** Every error quotes the clause, key or value it is about. */
    private static final Pattern LOCATED = Pattern.compile(
            "^(network clause \"|unknown network key \"|latency \"|loss \"|bw \"|partition: bad node id \").*");

    NetSpecFormat() {
        super("net-spec", new ByteMutator(ByteMutator.bytes(
                "latency=uniform:0-8000,loss=0.02", "latency=exp:5000", "lat=fixed:100,bw=2000000", "partition=0+1+2|3+4",
                "latency=uniform:1000-60000,loss=0.1,partition=0+1|2", "", "bandwidth=100000,latency=const:7", "loss=1",
                "part=0|1", " latency = unif:5-5 , loss = 0.5e-1 ", "latency=exponential:1,bw=1,part=+|"),
                ByteMutator.bytes("latency=", "lat=", "loss=", "bw=", "bandwidth=", "partition=", "part=", "fixed:", "uniform:",
                        "exp:", "const:", "unif:", "exponential:", "-", "|", "+", "=", ",", "0.5", "1e-9")));
    }

    @Override
    public String feed(byte[] input) throws Exception {
        NetSpec spec;
        try {
            spec = NetSpec.parse(new String(input, StandardCharsets.UTF_8));
        } catch (NetSpecException e) {
            return locatedOrThrow(e.getMessage(), LOCATED, "");
        }
        // A spec that parses must be usable: fates for a few channels and sizes never throw.
        FaultModel model = new FaultModel(input.length, spec);
        for (int i = 0; i < 6; i++) {
            model.fate(VAddr.ofNode(i % 3, 100), VAddr.ofNode((i + 1) % 3, 100), i, i * 700);
        }
        return null;
    }
}
