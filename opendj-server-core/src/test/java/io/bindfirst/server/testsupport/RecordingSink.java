package io.bindfirst.server.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.opendj.ldap.responses.SearchResultEntry;
import org.forgerock.opendj.ldap.responses.SearchResultReference;

/**
 * What one operation answered: its search entries and references in the order sent, then its one final result
 * (with its code, message, matched DN and controls). Strict about the {@code ResponseSink} contract: nothing after
 * the result, exactly one result (an abandoned operation sends none: not what it is for) and one
 * {@code complete()}; {@link #await} fails saying which rule was broken.
 */
public final class RecordingSink implements io.bindfirst.server.core.ResponseSink {
    private final List<SearchResultEntry> entries = new ArrayList<>();
    private final List<SearchResultReference> references = new ArrayList<>();
    private final List<Result> results = new ArrayList<>();
    private final List<String> misuse = new ArrayList<>();
    private final CountDownLatch completed = new CountDownLatch(1);
    private int completions;

    @Override
    public synchronized void send(Response response) {
        if (!results.isEmpty() || completions > 0) {
            misuse.add("a response after the result or the completion: " + response);
        }
        if (response instanceof SearchResultEntry e) {
            entries.add(e);
        } else if (response instanceof SearchResultReference r) {
            references.add(r);
        } else if (response instanceof Result r) {
            results.add(r);
        } else {
            misuse.add("a response of an unexpected type: " + response);
        }
    }

    @Override
    public synchronized void complete() {
        if (++completions > 1) {
            misuse.add("complete() called " + completions + " times");
        }
        completed.countDown();
    }

    /**
     * Waits until the operation completed (at once when it ran on this thread; an operation may finish on the slow
     * lane's thread), then checks that it kept to the contract and answered one result.
     */
    public RecordingSink await(Duration limit) {
        try {
            if (!completed.await(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("The operation did not complete within " + limit);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for the operation", e);
        }
        synchronized (this) {
            if (!misuse.isEmpty()) {
                throw new AssertionError("The operation broke the ResponseSink contract: " + misuse);
            }
            if (results.size() != 1) {
                throw new AssertionError("Expected one result, got " + results);
            }
        }
        return this;
    }

    public synchronized Result result() {
        return results.get(0);
    }

    public ResultCode code() {
        return result().getResultCode();
    }

    public String message() {
        return result().getDiagnosticMessage();
    }

    public synchronized List<SearchResultEntry> entries() {
        return List.copyOf(entries);
    }

    public synchronized List<SearchResultReference> references() {
        return List.copyOf(references);
    }

    /** The DNs of the entries sent, as the server wrote them, sorted. */
    public synchronized Set<String> dns() {
        Set<String> out = new TreeSet<>();
        entries.forEach(e -> out.add(e.getName().toString()));
        return out;
    }

    @Override
    public synchronized String toString() {
        return results + " after " + entries.size() + " entries";
    }
}
