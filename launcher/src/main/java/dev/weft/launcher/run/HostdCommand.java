package dev.weft.launcher.run;

import dev.weft.broker.auth.SharedToken;
import dev.weft.cli.ArgsProblem;
import dev.weft.cli.CommandArgs;
import dev.weft.cli.CommandArgs.BadValue;
import dev.weft.text.OsErrorText;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code weft hostd [--listen [HOST:]PORT] [--token-file F] [--shim P]}: starts the host agent
 * ({@link HostAgent}) and serves masters until it is stopped. A token is required: the agent runs programs for
 * whoever proves it, so without one it would run them for anyone who can reach the port.
 */
public final class HostdCommand {
    /** The default control port (loopback unless --listen names a host). */
    public static final int DEFAULT_PORT = 7787;

    public static final String USAGE = "Usage: weft hostd [--listen [HOST:]PORT] [--token-file FILE] [--shim PATH]\n"
            + "\n"
            + "The host agent of multi-host runs: start it once per machine; `weft run --hosts A:PORT,B:PORT ...` on\n"
            + "the master machine then starts the nodes through it (docs/broker.md, \"Several hosts\"). It runs each node\n"
            + "under this machine's shim, carries its broker connections to the master's broker, streams its output\n"
            + "back, reports its exit, and kills every node of a master that goes away.\n"
            + "\n"
            + "Options:\n"
            + "  --listen <[HOST:]PORT>   control address (default 127.0.0.1:" + DEFAULT_PORT + "; PORT 0 picks a free one)\n"
            + "  --token-file <FILE>      the shared token (default: the file named by WEFT_TOKEN_FILE); required:\n"
            + "                           masters must prove it before anything runs\n"
            + "  --shim <PATH>            use this libweft_shim.so (default: WEFT_SHIM, then the bundled one)\n"
            + "  -h, --help               print this help\n"
            + "\n"
            + "Prints `weft hostd: listening on tcp HOST:PORT` on stderr once ready. Exit status: 2 usage error.\n";

    private HostdCommand() {
    }

    /** The picocli model of {@code weft hostd}; {@code --listen} is checked when it is met. */
    public static CommandSpec spec() {
        return CommandSpec.create().name("hostd")
                .addOption(CommandArgs.convertedOption("<[HOST:]PORT>", InetSocketAddress.class,
                        HostdCommand::listenAddress, "--listen"))
                .addOption(CommandArgs.valueOption("<FILE>", "--token-file"))
                .addOption(CommandArgs.valueOption("<PATH>", "--shim"))
                .addOption(CommandArgs.helpOption());
    }

    public static int run(String[] args, Map<String, String> env, PrintStream err) {
        ParseResult parsed;
        try {
            parsed = CommandArgs.parse(spec(), args);
        } catch (ArgsProblem p) {
            err.println("weft hostd: " + switch (p.kind()) {
                case MISSING_VALUE -> p.argument() + " needs a value";
                case UNKNOWN_OPTION, UNEXPECTED_ARGUMENT -> "unknown option " + p.argument();
                case BAD_VALUE, OTHER -> p.argument();
            });
            err.print(USAGE);
            return RunCommand.USAGE_ERROR;
        }
        InetSocketAddress listen = parsed.matchedOptionValue("--listen",
                new InetSocketAddress("127.0.0.1", DEFAULT_PORT));
        String tokenName = parsed.matchedOptionValue("--token-file", null);
        String shimName = parsed.matchedOptionValue("--shim", null);
        Path tokenFile = tokenName == null ? null : Path.of(tokenName);
        Path shimOption = shimName == null ? null : Path.of(shimName);
        SharedToken token;
        try {
            Optional<SharedToken> t = SharedToken.resolve(tokenFile, env);
            if (t.isEmpty()) {
                err.println("weft hostd: a shared token is required (--token-file FILE or " + SharedToken.ENV
                        + "): the agent runs programs for whoever connects, so it must know who that is");
                return RunCommand.USAGE_ERROR;
            }
            token = t.get();
        } catch (SharedToken.InvalidTokenFileException e) {
            err.println("weft hostd: --token-file " + e.getMessage());
            return RunCommand.USAGE_ERROR;
        }
        Path shim;
        try {
            shim = new ShimLocator(env, ShimLocator.ownLocation().orElse(null)).locate(Optional.ofNullable(shimOption));
        } catch (ShimLocator.ShimNotFoundException e) {
            err.println("weft hostd: " + e.getMessage());
            return RunCommand.USAGE_ERROR;
        }
        HostAgent agent;
        try {
            agent = new HostAgent(token, shim, env, err, listen);
        } catch (IOException e) {
            err.println("weft hostd: cannot listen on " + listen.getHostString() + ":" + listen.getPort() + ": "
                    + OsErrorText.of(e));
            return RunCommand.USAGE_ERROR;
        }
        InetSocketAddress a = agent.address();
        err.println("weft hostd: listening on tcp " + AddressText.of(listen, a)
                + (a.getAddress().isLoopbackAddress() ? "" : " (not loopback: masters elsewhere can reach it; they"
                + " must prove the token)"));
        agent.serve();
        return 0;
    }

    private static InetSocketAddress listenAddress(String v) {
        try {
            return RunOptions.listenAddress(v);
        } catch (RunOptions.UsageException e) {
            throw new BadValue(e.getMessage());
        }
    }
}
