package io.bindfirst.tools;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

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

    /**
     * Why {@code e} happened to {@code subject}, in words: the JDK's file exceptions carry only the path as their
     * message ("Cannot write /x/y.ldif: /x/y.ldif" says nothing). The path the exception names is added when it
     * is not {@code subject} itself (a missing parent directory, say).
     */
    static String why(IOException e, Path subject) {
        String reason;
        if (e instanceof NoSuchFileException) {
            reason = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            reason = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            reason = "it already exists";
        } else if (e instanceof NotDirectoryException) {
            reason = "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            reason = "the directory is not empty";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            reason = f.getReason();
        } else {
            return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        }
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        return file == null || subject != null && Path.of(file).equals(subject) ? reason : reason + ": " + file;
    }

    /** The command line of {@code command}, ready to {@code execute}. */
    static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        // A wrong option: the error and where the usage is, not the error buried under the whole usage.
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine line = e.getCommandLine();
            PrintWriter err = line.getErr();
            err.println(line.getCommandName() + ": " + e.getMessage());
            err.println("See '" + line.getCommandName() + " --help' for the options.");
            err.flush();
            return USAGE;
        });
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
