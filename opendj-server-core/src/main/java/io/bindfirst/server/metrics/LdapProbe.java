package io.bindfirst.server.metrics;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.ASN1Writer;

/**
 * Asks the LDAP listener what any client could: an anonymous search of the root DSE (base scope, no attributes),
 * over a new connection, then an unbind. An answer means the listener accepts, a request is read, decoded,
 * handed to a worker and answered; a port that only accepts (the kernel's backlog does that for a server that
 * never reads) does not pass. The probe is an ordinary client: it is counted and logged like one.
 */
final class LdapProbe {
    private static final byte SEARCH_REQUEST = 0x63;
    private static final byte SEARCH_RESULT_ENTRY = 0x64;
    private static final byte SEARCH_RESULT_DONE = 0x65;
    private static final byte UNBIND_REQUEST = 0x42;
    /** The context-specific tag of a present filter. */
    private static final byte FILTER_PRESENT = (byte) 0x87;

    private final InetSocketAddress target;
    private final int timeoutMillis;

    /**
     * @param listener where the LDAP listener is bound; a wildcard address is probed on loopback
     * @param timeout for the connection and for the answer
     */
    LdapProbe(InetSocketAddress listener, Duration timeout) {
        InetAddress a = listener.getAddress();
        this.target = a.isAnyLocalAddress() ? new InetSocketAddress(InetAddress.getLoopbackAddress(),
                listener.getPort()) : listener;
        this.timeoutMillis = (int) Math.max(1, timeout.toMillis());
    }

    /** {@code null} when the search answered success, else why not, in one line. */
    String probe() {
        try (Socket socket = new Socket()) {
            socket.connect(target, timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            writeRootDseSearch(out, 1);
            int result = readSearchResult(ASN1.getReader(new BufferedInputStream(socket.getInputStream())));
            writeUnbind(out, 2);
            return result == 0 ? null : "the LDAP listener answered a root DSE search with result code " + result;
        } catch (java.net.SocketTimeoutException e) {
            return "the LDAP listener on " + hostPort() + " did not answer within " + timeoutMillis + " ms";
        } catch (IOException e) {
            return "the LDAP listener on " + hostPort() + " did not answer: " + e.getMessage();
        }
    }

    private String hostPort() {
        return target.getAddress().getHostAddress() + ":" + target.getPort();
    }

    static void writeRootDseSearch(OutputStream out, int messageId) throws IOException {
        ASN1Writer w = ASN1.getWriter(out);
        w.writeStartSequence();
        w.writeInteger(messageId);
        w.writeStartSequence(SEARCH_REQUEST);
        w.writeOctetString("");
        w.writeEnumerated(0); // base object
        w.writeEnumerated(0); // never dereference aliases
        w.writeInteger(0); // no size limit
        w.writeInteger(0); // no time limit: the probe's own timeout bounds the wait
        w.writeBoolean(false);
        w.writeOctetString(FILTER_PRESENT, "objectClass");
        w.writeStartSequence();
        w.writeOctetString("1.1"); // no attributes: nothing to read but the answer
        w.writeEndSequence();
        w.writeEndSequence();
        w.writeEndSequence();
        w.flush();
    }

    private static void writeUnbind(OutputStream out, int messageId) throws IOException {
        ASN1Writer w = ASN1.getWriter(out);
        w.writeStartSequence();
        w.writeInteger(messageId);
        w.writeNull(UNBIND_REQUEST);
        w.writeEndSequence();
        w.flush();
    }

    /**
     * Reads LDAP messages until the search's result: skips its entries, returns the result code.
     *
     * @throws IOException on anything else (a notice of disconnection, bytes that are not LDAP)
     */
    static int readSearchResult(ASN1Reader r) throws IOException {
        while (true) {
            r.readStartSequence();
            r.readInteger();
            byte op = r.peekType();
            if (op == SEARCH_RESULT_DONE) {
                r.readStartSequence(SEARCH_RESULT_DONE);
                return r.readEnumerated();
            }
            if (op != SEARCH_RESULT_ENTRY) {
                throw new IOException(String.format("expected a search response, got an LDAP message of type 0x%02x",
                        op));
            }
            r.skipElement();
            while (r.hasNextElement()) {
                r.skipElement(); // controls
            }
            r.readEndSequence();
        }
    }
}
