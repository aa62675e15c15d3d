package io.bindfirst.tools;

import java.io.PrintWriter;

import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What every tool's command line shares: exit codes (0 done, 1 failed or done in part, 2 a usage error)
 * and errors as one message each. An error the tool did not foresee still gets a message and exit 1, not
 * picocli's stack trace.
 */
final class Tools {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    private Tools() {
    }

    /** What a tool does once its command line is parsed: its exit code, or a {@link ToolException}. */
    interface Body {
        int run(PrintWriter out, PrintWriter err) throws ToolException;
    }

    /**
     * Runs a tool's body with its command line's streams: a {@link ToolException} becomes one line on the error
     * stream, {@code name: message}, and exit code 1; both streams are flushed however the body ends.
     */
    static int run(CommandSpec spec, Body body) {
        CommandLine line = spec.commandLine();
        PrintWriter out = line.getOut();
        PrintWriter err = line.getErr();
        try {
            return body.run(out, err);
        } catch (ToolException e) {
            err.println(line.getCommandName() + ": " + e.getMessage());
            return FAILED;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** The command line of {@code command}, ready to {@code execute}. */
    static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            PrintWriter err = line.getErr();
            err.println(line.getCommandName() + ": unexpected error: " + e
                    + (e.getCause() != null ? " (" + e.getCause() + ")" : ""));
            err.flush();
            return FAILED;
        });
        return cl;
    }

    /**
     * Runs a tool from {@code main}: the server's parts log warnings only (tools-logback.xml), since the tool
     * reports what it does itself; a logging configuration given on the command line is left alone.
     */
    static void main(Object command, String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            System.setProperty("logback.configurationFile", "tools-logback.xml");
        }
        System.exit(commandLine(command).execute(args));
    }
}
