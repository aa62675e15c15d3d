package io.bindfirst.server.metrics;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.testng.annotations.Test;

/**
 * The probe's side of the exchange: what it sends is a root DSE search, what it accepts as an answer is a search
 * result, and a listener that only accepts (never reads) or refuses is reported, in one line, within the timeout.
 * The server's side is tested in the integration tests, against a real server.
 */
public class LdapProbeTest {

    /** An LDAP message: a search entry (0x64) with no attributes, or a response of type {@code op} with this code. */
    private static void message(ASN1Writer w, int id, byte op, int resultCode) throws IOException {
        w.writeStartSequence();
        w.writeInteger(id);
        w.writeStartSequence(op);
        if (op == 0x64) {
            w.writeOctetString("");
            w.writeStartSequence();
            w.writeEndSequence();
        } else {
            w.writeEnumerated(resultCode);
            w.writeOctetString("");
            w.writeOctetString("");
        }
        w.writeEndSequence();
        w.writeEndSequence();
    }

    @Test
    public void theRequestIsASearchOfTheRootDseForNoAttributes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        LdapProbe.writeRootDseSearch(out, 1);
        ASN1Reader r = ASN1.getReader(out.toByteArray());
        r.readStartSequence();
        assertEquals(r.readInteger(), 1);
        r.readStartSequence((byte) 0x63);
        assertEquals(r.readOctetStringAsString(), "");
        assertEquals(r.readEnumerated(), 0); // base
        assertEquals(r.readEnumerated(), 0);
        assertEquals(r.readInteger(), 0);
        assertEquals(r.readInteger(), 0);
        assertEquals(r.readBoolean(), false);
        assertEquals(r.readOctetStringAsString((byte) 0x87), "objectClass");
        r.readStartSequence();
        assertEquals(r.readOctetStringAsString(), "1.1");
        r.readEndSequence();
        r.readEndSequence();
        r.readEndSequence();
    }

    @Test
    public void entriesAreSkippedAndTheResultCodeIsRead() throws IOException {
        ByteStringBuilder bytes = new ByteStringBuilder();
        ASN1Writer w = ASN1.getWriter(bytes);
        message(w, 1, (byte) 0x64, 0);
        message(w, 1, (byte) 0x64, 0);
        message(w, 1, (byte) 0x65, 32);
        assertEquals(LdapProbe.readSearchResult(ASN1.getReader(bytes.toByteArray())), 32);
    }

    @Test
    public void aNoticeOfDisconnectionIsNotAnAnswer() throws IOException {
        ByteStringBuilder bytes = new ByteStringBuilder();
        message(ASN1.getWriter(bytes), 0, (byte) 0x78, 52);
        IOException e = expectThrows(IOException.class,
                () -> LdapProbe.readSearchResult(ASN1.getReader(bytes.toByteArray())));
        assertTrue(e.getMessage().contains("0x78"), e.getMessage());
    }

    @Test
    public void aListenerThatAnswersSuccessPasses() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            server.setSoTimeout(10_000); // a probe that never connects fails the test, not hangs it
            CompletableFuture<Void> served = CompletableFuture.runAsync(() -> {
                try (Socket s = server.accept()) {
                    InputStream in = s.getInputStream();
                    ASN1.getReader(in).skipElement(); // the search
                    OutputStream out = s.getOutputStream();
                    ASN1Writer w = ASN1.getWriter(out);
                    message(w, 1, (byte) 0x64, 0);
                    message(w, 1, (byte) 0x65, 0);
                    w.flush();
                    ASN1.getReader(in).skipElement(); // the unbind
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            assertNull(new LdapProbe((InetSocketAddress) server.getLocalSocketAddress(), Duration.ofSeconds(5))
                    .probe());
            served.get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    public void aListenerThatNeverAnswersFailsWithinTheTimeout() throws Exception {
        // The kernel completes the connection (backlog) though nothing ever accepts or reads it.
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            long t0 = System.nanoTime();
            String why = new LdapProbe((InetSocketAddress) server.getLocalSocketAddress(), Duration.ofMillis(300))
                    .probe();
            long millis = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(why.contains("did not answer within 300 ms"), why);
            assertTrue(millis < 5_000, millis + " ms");
        }
    }

    @Test
    public void aClosedPortFails() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String why = new LdapProbe(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
                Duration.ofSeconds(1)).probe();
        assertTrue(why.startsWith("the LDAP listener on 127.0.0.1:" + port + " did not answer: "), why);
        assertTrue(!why.contains("\n"), why);
    }

    @Test
    public void aWildcardListenerIsProbedOnLoopback() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String why = new LdapProbe(new InetSocketAddress("0.0.0.0", server.getLocalPort()),
                    Duration.ofMillis(200)).probe();
            // Reached (and timed out on) the loopback socket, rather than failing to connect.
            assertTrue(why.contains("127.0.0.1:" + server.getLocalPort() + " did not answer within"), why);
        }
    }
}
