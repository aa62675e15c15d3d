package io.bindfirst.it.search;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1Integer;
import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.asn1.ASN1Sequence;
import com.unboundid.ldap.sdk.AsyncRequestID;
import com.unboundid.ldap.sdk.AsyncSearchResultListener;
import com.unboundid.ldap.sdk.ExtendedRequest;
import com.unboundid.ldap.sdk.ExtendedResult;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchRequest;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchResultReference;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.CancelExtendedRequest;

import io.bindfirst.it.support.SlowSearchBackendProvider;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.testsupport.Poll;

/**
 * The Cancel extended operation (RFC 3909) on searches that take seconds (the JE backend slowed by
 * {@link SlowSearchBackendProvider} to 20 ms a candidate): unlike an abandon, the search answers
 * {@code canceled} and the cancel {@code success}; and the cancel's refusals.
 */
public class CancelTest {
    private static final int USERS = 300; // 300 x 20 ms = 6 s for a full walk
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(USERS, c -> c.withBackendType("userRoot", SlowSearchBackendProvider.TYPE));
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Records a search's entries and its result. */
    private static final class Listener implements AsyncSearchResultListener {
        private static final long serialVersionUID = 1L;
        final AtomicInteger entries = new AtomicInteger();
        final BlockingQueue<SearchResult> result = new ArrayBlockingQueue<>(1);

        @Override
        public void searchEntryReturned(SearchResultEntry entry) {
            entries.incrementAndGet();
        }

        @Override
        public void searchReferenceReturned(SearchResultReference reference) {
        }

        @Override
        public void searchResultReceived(AsyncRequestID id, SearchResult r) {
            result.add(r);
        }
    }

    @Test(timeOut = 30_000)
    public void cancelStopsASearchWhichAnswersCanceled() throws Exception {
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            Listener listener = new Listener();
            AsyncRequestID id = root.asyncSearch(new SearchRequest(listener, TestServer.PEOPLE, SearchScope.ONE,
                    "(objectClass=person)", "1.1"));
            Poll.until("the search to return entries", Duration.ofSeconds(10), () -> listener.entries.get() > 0);
            long t0 = System.nanoTime();
            ExtendedResult cancel = root.processExtendedOperation(new CancelExtendedRequest(id));
            assertEquals(cancel.getResultCode(), ResultCode.SUCCESS, cancel.getDiagnosticMessage());
            SearchResult searched = listener.result.poll(5, TimeUnit.SECONDS);
            assertEquals(searched.getResultCode(), ResultCode.CANCELED);
            assertTrue(listener.entries.get() < USERS);
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0) < 3_000);
            // The connection goes on.
            assertEquals(root.getEntry(TestServer.user(1), "1.1").getDN(), TestServer.user(1));
        }
    }

    @Test
    public void nothingOutstandingIsNoSuchOperation() throws Exception {
        try (LDAPConnection c = server.connect()) {
            assertEquals(cancel(c, 9_999).getResultCode(), ResultCode.NO_SUCH_OPERATION);
        }
    }

    @Test
    public void aCancelCannotCancelItself() throws Exception {
        try (LDAPConnection c = server.connect()) {
            int last = c.compare(TestServer.user(1), "uid", "user.1").getMessageID();
            assertEquals(cancel(c, last + 1).getResultCode(), ResultCode.CANNOT_CANCEL);
        }
    }

    @Test
    public void malformedCancelIsAProtocolError() throws Exception {
        try (LDAPConnection c = server.connect()) {
            ResultCode code;
            try {
                code = c.processExtendedOperation(new ExtendedRequest(CancelExtendedRequest.CANCEL_REQUEST_OID,
                        new ASN1OctetString("not BER"))).getResultCode();
            } catch (LDAPException e) { // the SDK throws for protocolError
                code = e.getResultCode();
            }
            assertEquals(code, ResultCode.PROTOCOL_ERROR);
        }
    }

    @Test
    public void rootDseListsCancel() throws Exception {
        try (LDAPConnection c = server.connect()) {
            assertTrue(List.of(c.getRootDSE().getSupportedExtendedOperationOIDs())
                    .contains(CancelExtendedRequest.CANCEL_REQUEST_OID));
        }
    }

    private static ExtendedResult cancel(LDAPConnection c, int messageId) throws Exception {
        return c.processExtendedOperation(new ExtendedRequest(CancelExtendedRequest.CANCEL_REQUEST_OID,
                new ASN1OctetString(new ASN1Sequence(new ASN1Integer(messageId)).encode())));
    }
}
