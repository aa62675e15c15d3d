package io.bindfirst.it.conformance;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.stress.LdapMutator;
import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;

/** Garbage on the wire gets a notice of disconnection (RFC 4511 4.4.1), and the server carries on. */
public class MalformedRequestTest {
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(10);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 30_000)
    public void undecodableMessageGetsANoticeOfDisconnection() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            // A well-formed LDAPMessage SEQUENCE holding message ID 1 and an unknown [APPLICATION 30] op.
            out.write(new byte[] {0x30, 0x05, 0x02, 0x01, 0x01, 0x7e, 0x00});
            out.flush();
            InputStream in = s.getInputStream();
            LDAPMessage m = LDAPMessage.readFrom(new ASN1StreamReader(in), true);
            assertEquals(m.getMessageID(), 0);
            var notice = m.getExtendedResponseProtocolOp();
            assertEquals(notice.getResponseOID(), "1.3.6.1.4.1.1466.20036");
            assertEquals(notice.getResultCode(), com.unboundid.ldap.sdk.ResultCode.PROTOCOL_ERROR_INT_VALUE);
            assertEquals(in.read(), -1, "the server should close the connection");
        }
        try (LDAPConnection c = server.bindAs(TestServer.user(1), "password")) {
            assertTrue(c.isConnected());
        }
    }

    /**
     * A filter nested 2,000 deep once overflowed the worker's stack (the matcher and the log walk filters
     * recursively); one 300,000 deep (1.8 MB, under the request limit) overflowed the SDK's decoder, or did not,
     * depending on how much of it the JIT had compiled, so the same request ended its connection on one run and was
     * refused on the next. Either depth is now refused with adminLimitExceeded, and the connection goes on.
     */
    @Test(timeOut = 60_000)
    public void aFilterNestedTooDeepIsRefusedAndTheConnectionGoesOn() throws Exception {
        try (RawLdap raw = new RawLdap(server.port())) {
            int messageId = 8;
            for (int depth : new int[] {101, 2_000, 300_000}) {
                raw.send(LdapMutator.nestedNotSearch(depth));
                LDAPMessage done = raw.read(LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE);
                assertEquals(done.getSearchResultDoneProtocolOp().getResultCode(),
                        ResultCode.ADMIN_LIMIT_EXCEEDED_INT_VALUE, depth + " levels: " + done);
                raw.send(RawLdap.bind(messageId++, TestServer.user(1), "password"));
                assertEquals(raw.read(LDAPMessage.PROTOCOL_OP_TYPE_BIND_RESPONSE).getBindResponseProtocolOp()
                        .getResultCode(), 0, "after " + depth + " levels");
            }
        }
    }

    @Test(timeOut = 30_000)
    public void notLdapAtAllIsDropped() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            // 'G' (0x47) reads as a tag and 'E' (0x45) as a 69-byte length: send a whole element, so the
            // server has a complete (non-LDAP) message to reject rather than waiting for more bytes.
            s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: x\r\n\r\n" + "x".repeat(100)).getBytes());
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            // Whatever the server says first (a notice of disconnection or nothing), it closes.
            byte[] buf = new byte[512];
            while (in.read(buf) >= 0) {
                // drain until closed
            }
        }
        try (LDAPConnection c = server.bindAs(TestServer.user(2), "password")) {
            assertTrue(c.isConnected());
        }
    }
}
