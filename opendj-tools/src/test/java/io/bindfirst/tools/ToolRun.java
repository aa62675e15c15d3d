package io.bindfirst.tools;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** A tool run in-process as its {@code main} runs it: the exit code and what it printed. */
record ToolRun(int exitCode, String out, String err) {

    static ToolRun run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Tools.commandLine(command);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new ToolRun(code, out.toString(), err.toString());
    }

    static ToolRun importLdif(String... args) {
        return run(new ImportLdif(), args);
    }

    static ToolRun exportLdif(String... args) {
        return run(new ExportLdif(), args);
    }

    static ToolRun backup(String... args) {
        return run(new Backup(), args);
    }

    static ToolRun restore(String... args) {
        return run(new Restore(), args);
    }

    /** For assertion messages: everything the tool said. */
    String said() {
        return "exit " + exitCode + "\n--- out:\n" + out + "--- err:\n" + err;
    }
}
