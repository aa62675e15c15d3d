package io.bindfirst.tools;

/**
 * A failure the tool reports as one message, saying what went wrong and what to do, with no stack trace:
 * the commands turn it into their exit code 1.
 */
final class ToolException extends Exception {
    private static final long serialVersionUID = 1L;

    ToolException(String message) {
        super(message);
    }

    ToolException(String message, Throwable cause) {
        super(message, cause);
    }
}
