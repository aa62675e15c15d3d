package io.bindfirst.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The command lines of the load clients ({@link ReconnectRate}, {@link MixedLoad}): {@code --name value} pairs,
 * {@code --help}, and exit code 2 with the usage for anything else.
 */
final class Options {
    private Options() {
    }

    /**
     * The options given, by name without the dashes; null after printing {@code usage} for {@code --help}.
     * Exits with 2 (after printing the problem and {@code usage}) on an option not in {@code known}, one
     * without a value, or a missing {@code required} one.
     */
    static Map<String, String> parse(String program, String usage, String[] args, List<String> known,
                                     String required) {
        Map<String, String> o = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                System.out.println(usage);
                return null;
            }
            if (!args[i].startsWith("--") || i + 1 == args.length) {
                fail(program, usage, "unknown or incomplete option '" + args[i] + "'");
            }
            o.put(args[i].substring(2), args[++i]);
        }
        for (String k : o.keySet()) {
            if (!known.contains(k)) {
                fail(program, usage, "unknown option --" + k);
            }
        }
        if (!o.containsKey(required)) {
            fail(program, usage, "--" + required + " is required");
        }
        return o;
    }

    /** Prints the problem and the usage, and exits with 2. */
    static void fail(String program, String usage, String problem) {
        System.err.println(program + ": " + problem + "\n" + usage);
        System.exit(2);
    }
}
