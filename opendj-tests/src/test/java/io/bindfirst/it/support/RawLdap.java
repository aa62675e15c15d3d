package io.bindfirst.it.support;

import static org.testng.Assert.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.protocol.UnbindRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * A plain socket speaking LDAP message by message, for tests that need what a client library hides:
 * pipelined requests, unsolicited notices, exactly when the server closes.
 */
public final class RawLdap implements AutoCloseable {
    static final String NOTICE_OF_DISCONNECTION = "1.3.6.1.4.1.1466.20036";

    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    private final ASN1StreamReader reader;

    public RawLdap(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(20_000);
        out = socket.getOutputStream();
        in = socket.getInputStream();
        reader = new ASN1StreamReader(in);
    }

    public static byte[] bind(int messageId, String dn, String password) {
        return new LDAPMessage(messageId, new BindRequestProtocolOp(dn, password)).encode().encode();
    }

    public static byte[] search(int messageId, String base, String filter) throws LDAPException {
        return new LDAPMessage(messageId, new SearchRequestProtocolOp(base, SearchScope.SUB,
                DereferencePolicy.NEVER, 0, 0, false, Filter.create(filter), java.util.List.of("1.1")))
                .encode().encode();
    }

    /** A subtree search returning every user attribute of each entry (big responses). */
    public static byte[] searchAllAttributes(int messageId, String base, String filter) throws LDAPException {
        return new LDAPMessage(messageId, new SearchRequestProtocolOp(base, SearchScope.SUB,
                DereferencePolicy.NEVER, 0, 0, false, Filter.create(filter), java.util.List.of()))
                .encode().encode();
    }

    public static byte[] unbind(int messageId) {
        return new LDAPMessage(messageId, new UnbindRequestProtocolOp()).encode().encode();
    }

    public void send(byte[]... messages) throws IOException {
        for (byte[] m : messages) {
            out.write(m);
        }
        out.flush();
    }

    public void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    public LDAPMessage read() throws IOException, LDAPException {
        LDAPMessage m = LDAPMessage.readFrom(reader, true);
        if (m == null) {
            throw new IOException("the server closed the connection");
        }
        return m;
    }

    /** Reads the next message, which must be a response of {@code protocolOpType} (not a notice, say). */
    public LDAPMessage read(byte protocolOpType) throws IOException, LDAPException {
        LDAPMessage m = read();
        if (m.getProtocolOpType() != protocolOpType) {
            throw new AssertionError("expected a response of type " + protocolOpType + ", got " + m);
        }
        return m;
    }

    /** Reads the next message, which must be a notice of disconnection with {@code resultCode}; then EOF. */
    public String expectNoticeOfDisconnection(int resultCode) throws IOException, LDAPException {
        LDAPMessage m = read();
        assertEquals(m.getMessageID(), 0, "not a notice of disconnection: " + m);
        var notice = m.getExtendedResponseProtocolOp();
        assertEquals(notice.getResponseOID(), NOTICE_OF_DISCONNECTION);
        assertEquals(notice.getResultCode(), resultCode, "notice: " + notice.getDiagnosticMessage());
        expectClosed();
        return notice.getDiagnosticMessage();
    }

    /** The server closes the connection (reads end), within the socket timeout. */
    public void expectClosed() throws IOException {
        byte[] buf = new byte[4096];
        while (true) {
            int n = in.read(buf);
            if (n < 0) {
                return;
            }
        }
    }

    /** Whether nothing arrives (and the connection stays open) for {@code millis}. */
    public boolean quietFor(int millis) throws IOException {
        int old = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            in.read(); // data or the end of the stream: either way, not quiet
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(old);
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
