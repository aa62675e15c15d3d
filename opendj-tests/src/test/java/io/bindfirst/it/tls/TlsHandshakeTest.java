package io.bindfirst.it.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.testng.SkipException;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.asn1.ASN1StreamReader;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.StartTLSExtendedRequest;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.tls.TlsStatistics;

/**
 * How handshakes share the server: they never hold the selector threads that read for every connection, many
 * at once all finish, and the handshake counters tell full from resumed ones. The handshake time limit is long
 * here (8 s) so that a stall would show: Grizzly's handshake with a timeout blocked its selector thread until
 * the client finished, or the limit passed.
 */
public class TlsHandshakeTest {
    protected TestServer server;
    protected Path ca;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(60, c -> c.withTls(c.tls().withHandshakeTimeout(Duration.ofSeconds(8))
                .withProvider(provider()).withHandshakeCrypto(handshakeCrypto())
                .withHandshakeThreads(handshakeThreads()).withHandshakeNice(handshakeNice())));
        ca = server.instance().resolve("config/tls/ca.pem");
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Whose TLS the server uses: the same tests run with each ({@link TlsHandshakeConscryptTest}). */
    protected ServerConfig.Tls.Provider provider() {
        return ServerConfig.Tls.Provider.JDK;
    }

    /** Who computes the JDK's handshakes' ECDSA and X25519: the default, or {@link TlsHandshakeJdkCryptoTest}'s. */
    protected ServerConfig.Tls.HandshakeCrypto handshakeCrypto() {
        return ServerConfig.Tls.HandshakeCrypto.BOUNCY_CASTLE;
    }

    /** Threads for handshake steps off the selectors ({@link TlsHandshakeOffSelectorTest}); 0: on them. */
    protected int handshakeThreads() {
        return 0;
    }

    /** The handshake threads' nice value: the one {@link TestServer} gives its servers unless overridden. */
    protected int handshakeNice() {
        return 0;
    }

    /**
     * Whether a resumed TLS 1.3 handshake can be told from a full one. Not with Conscrypt: BoringSSL gives the
     * resumed session a new creation time, and Conscrypt has no public way to ask; resumption itself is shown
     * by {@code TlsToolsTest} with openssl.
     */
    protected boolean countsTls13Resumption() {
        return true;
    }

    private TlsStatistics stats() {
        return server.server().tlsStatistics();
    }

    /** The first flight of a TLS client (its ClientHello), made by the JDK. */
    private static byte[] clientHello() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new TrustingNothingChecked()}, null);
        SSLEngine engine = ctx.createSSLEngine("localhost", 636);
        engine.setUseClientMode(true);
        engine.beginHandshake();
        ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), out);
        out.flip();
        byte[] bytes = new byte[out.remaining()];
        out.get(bytes);
        return bytes;
    }

    /**
     * The server's setting decides whose ECDSA the JVM's TLS gets (the JDK's looks it up in the JVM's providers):
     * Bouncy Castle's by default, the JDK's with {@code jdk}. Conscrypt computes its own and sets nothing.
     */
    @Test
    public void handshakeSignaturesComeFromTheConfiguredArithmetic() throws Exception {
        if (provider() != ServerConfig.Tls.Provider.JDK) {
            throw new SkipException("Conscrypt does its handshakes' arithmetic itself");
        }
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "SunEC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        Signature signer = Signature.getInstance("SHA256withECDSA");
        signer.initSign(generator.generateKeyPair().getPrivate());
        boolean jdk = signer.getProvider().getName().equals("SunEC");
        assertEquals(jdk, handshakeCrypto() == ServerConfig.Tls.HandshakeCrypto.JDK, signer.getProvider().getName());
    }

    @Test
    public void clientsThatStopMidHandshakeDoNotStallOthers() throws Exception {
        try (LDAPConnection bound = server.bindAs(TestServer.user(1), TestServer.USER_PASSWORD)) {
            List<Socket> stalled = new ArrayList<>();
            try {
                // Enough to meet every selector thread: connections are spread over them in turn.
                for (int i = 0; i < 6; i++) {
                    Socket s = new Socket("127.0.0.1", server.ldapsPort());
                    OutputStream out = s.getOutputStream();
                    out.write(clientHello());
                    out.flush();
                    stalled.add(s);
                }
                Thread.sleep(200); // the ClientHellos are read and answered; each server now waits for its client
                long t0 = System.nanoTime();
                for (int i = 2; i < 12; i++) {
                    assertEquals(bound.bind(TestServer.user(i), TestServer.USER_PASSWORD).getResultCode(),
                            ResultCode.SUCCESS);
                    try (LDAPConnection fresh = server.bindAs(TestServer.user(i), TestServer.USER_PASSWORD)) {
                        assertTrue(fresh.isConnected());
                    }
                }
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                // Bound loosely (a loaded machine): a stalled selector would hold them for the 8 s limit.
                assertTrue(ms < 4_000, "binds waited " + ms + " ms behind half-finished handshakes");
            } finally {
                for (Socket s : stalled) {
                    s.close();
                }
            }
        }
    }

    @Test
    public void manyStartTlsAtOnceAllFinishAndAreCounted() throws Exception {
        SSLContext trusting = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.3");
        long fullBefore = stats().full() + stats().resumed();
        int n = 48;
        List<Socket> open = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<SSLSocket>> started = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int user = i;
                started.add(pool.submit(() -> startTlsAndBind(trusting, user)));
            }
            for (Future<SSLSocket> f : started) {
                open.add(f.get(60, TimeUnit.SECONDS));
            }
            assertTrue(stats().full() + stats().resumed() - fullBefore >= n, "each handshake is counted");
            assertTrue(stats().openByProtocol().getOrDefault("TLSv1.3", 0L) >= n,
                    "open TLS connections by protocol: " + stats().openByProtocol());
        } finally {
            for (Socket s : open) {
                s.close();
            }
            pool.shutdownNow();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stats().openByProtocol().getOrDefault("TLSv1.3", 0L) >= n && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(stats().openByProtocol().getOrDefault("TLSv1.3", 0L) < n, "closed ones leave the gauge");
        long histogram = stats().handshakeTimeHistogram().values().stream().mapToLong(Long::longValue).sum();
        assertEquals(histogram, stats().full() + stats().resumed(), "every finished handshake has a time");
    }

    /**
     * StartTLS on a new connection and a simple bind over it, written with the UnboundID SDK's protocol classes on
     * a socket of this test's own. Not the SDK's {@code StartTLSExtendedRequest}: it sends its request under a
     * fixed 50 ms write timeout, whose timer closes the socket of a write still in progress after that, and 48
     * client threads in the server's JVM on two loaded cores can be held off the CPU that long (a collection, the
     * scheduler): the socket was closed under one of them in a CI run before its request left.
     */
    private SSLSocket startTlsAndBind(SSLContext client, int user) throws Exception {
        Socket plain = new Socket("127.0.0.1", server.port());
        try {
            plain.setSoTimeout(30_000);
            OutputStream out = plain.getOutputStream();
            out.write(new LDAPMessage(1, new ExtendedRequestProtocolOp(StartTLSExtendedRequest.STARTTLS_REQUEST_OID,
                    null)).encode().encode());
            out.flush();
            LDAPMessage started = LDAPMessage.readFrom(new ASN1StreamReader(plain.getInputStream()), false);
            assertEquals(started.getExtendedResponseProtocolOp().getResultCode(), 0, started.toString());
            SSLSocket tls = (SSLSocket) client.getSocketFactory().createSocket(plain, "localhost", server.port(), true);
            tls.startHandshake();
            tls.getOutputStream().write(new LDAPMessage(2, new BindRequestProtocolOp(TestServer.user(user),
                    TestServer.USER_PASSWORD)).encode().encode());
            tls.getOutputStream().flush();
            LDAPMessage bound = LDAPMessage.readFrom(new ASN1StreamReader(tls.getInputStream()), false);
            assertEquals(bound.getBindResponseProtocolOp().getResultCode(), 0, bound.toString());
            return tls;
        } catch (Exception | AssertionError e) {
            plain.close();
            throw e;
        }
    }

    @Test
    public void aSecondConnectionResumesTheSessionOfTheFirst() throws Exception {
        for (String protocol : new String[] {"TLSv1.2", "TLSv1.3"}) {
            // One client context: its session cache carries the session (1.2) or ticket (1.3) over.
            SSLContext client = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext(protocol);
            long full = stats().full();
            long resumed = stats().resumed();
            for (int i = 0; i < 3; i++) {
                try (LDAPConnection c = new LDAPConnection(client.getSocketFactory(), "localhost",
                        server.ldapsPort())) {
                    assertEquals(c.bind(TestServer.user(40 + i), TestServer.USER_PASSWORD).getResultCode(),
                            ResultCode.SUCCESS);
                }
                if (i == 0) {
                    Thread.sleep(1_100); // BoringSSL keeps session times in seconds: see TlsStatistics.kindOf
                }
            }
            if (protocol.equals("TLSv1.3") && !countsTls13Resumption()) {
                assertEquals(stats().full() + stats().resumed() - full - resumed, 3, "each handshake is counted");
                continue;
            }
            assertEquals(stats().full() - full, 1, protocol + ": the first handshake is full");
            assertEquals(stats().resumed() - resumed, 2, protocol + ": the next ones resume it");
        }
    }

    /**
     * A handshake that ended cancels its deadline: a pending one held its closed connection and TLS buffers for
     * the whole time limit (8 s here, 10 s by default), about 130 MB of heap in a storm of 400 connections/s.
     */
    @Test
    public void finishedHandshakesLeaveNoDeadlinePending() throws Exception {
        SSLContext client = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.3");
        for (int i = 0; i < 20; i++) {
            try (LDAPConnection c = new LDAPConnection(client.getSocketFactory(), "localhost", server.ldapsPort())) {
                c.bind(TestServer.user(i), TestServer.USER_PASSWORD);
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (server.server().clientConnections().pendingTimers() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(server.server().clientConnections().pendingTimers(), 0,
                "no deadline is left for a handshake that ended");
    }

    @Test
    public void failuresAreCountedByReason() throws Exception {
        Map<String, Long> before = stats().failures();
        try (Socket s = new Socket("127.0.0.1", server.ldapsPort())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("this is not TLS at all, but long enough to be read".getBytes());
            while (s.getInputStream().read() >= 0) {
                continue;
            }
        } catch (java.net.SocketException reset) {
            // closed while reading: as good
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (stats().failures().equals(before) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Map<String, Long> after = stats().failures();
        assertTrue(!after.equals(before), "a failure is counted: " + after);
    }

    /**
     * A user deleted while their connection is between StartTLS and the end of its handshake loses the
     * connection at once, not at the handshake time limit (8 s here): no notice of disconnection can be sent
     * then, since the client reads TLS records by now and none exist yet. Before the client's first handshake
     * bytes and after them.
     */
    @Test
    public void aUserDeletedMidStartTlsIsDisconnected() throws Exception {
        for (boolean helloSent : new boolean[] {false, true}) {
            String dn = TestServer.user(helloSent ? 59 : 58);
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(5_000);
                OutputStream out = s.getOutputStream();
                ASN1StreamReader in = new ASN1StreamReader(s.getInputStream());
                out.write(new LDAPMessage(1, new BindRequestProtocolOp(dn, TestServer.USER_PASSWORD))
                        .encode().encode());
                assertEquals(LDAPMessage.readFrom(in, false).getBindResponseProtocolOp().getResultCode(), 0);
                out.write(new LDAPMessage(2, new ExtendedRequestProtocolOp(
                        StartTLSExtendedRequest.STARTTLS_REQUEST_OID, null)).encode().encode());
                assertEquals(LDAPMessage.readFrom(in, false).getExtendedResponseProtocolOp().getResultCode(), 0);
                if (helloSent) {
                    out.write(clientHello());
                    out.flush();
                    Thread.sleep(200); // the server reads it and answers; it now waits for the client
                }
                try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
                    root.delete(dn);
                }
                try {
                    while (s.getInputStream().read() >= 0) {
                        continue; // the server's handshake flight, if the hello was sent
                    }
                } catch (java.net.SocketTimeoutException e) {
                    throw new AssertionError("hello sent " + helloSent + ": the deleted user's connection is "
                            + "still open 5 s after the delete", e);
                } catch (java.net.SocketException reset) {
                    // closed while reading: as good
                }
            }
        }
    }

    /**
     * A client whose every write reaches the server a few bytes at a time (a slow link, a proxy that forwards as
     * it reads): each handshake record arrives in many reads, which the server must put together whichever thread
     * runs the step; the handshake completes and a bind over it is answered.
     */
    @Test
    public void aHandshakeArrivingAFewBytesAtATimeCompletes() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {new TrustingNothingChecked()}, null);
        try (Socket trickle = new TricklingSocket("127.0.0.1", server.ldapsPort(), 7);
             javax.net.ssl.SSLSocket tls = (javax.net.ssl.SSLSocket) ctx.getSocketFactory()
                     .createSocket(trickle, "localhost", server.ldapsPort(), true)) {
            tls.setSoTimeout(10_000);
            tls.startHandshake();
            OutputStream out = tls.getOutputStream();
            out.write(new LDAPMessage(1, new BindRequestProtocolOp(TestServer.user(3), TestServer.USER_PASSWORD))
                    .encode().encode());
            out.flush();
            LDAPMessage response = LDAPMessage.readFrom(new ASN1StreamReader(tls.getInputStream()), false);
            assertEquals(response.getBindResponseProtocolOp().getResultCode(), 0);
        }
    }

    /** A socket whose output goes out in pieces of a few bytes, each flushed and followed by a short pause. */
    private static final class TricklingSocket extends Socket {
        private final int piece;

        TricklingSocket(String host, int port, int piece) throws java.io.IOException {
            super(host, port);
            setTcpNoDelay(true);
            this.piece = piece;
        }

        @Override
        public OutputStream getOutputStream() throws java.io.IOException {
            OutputStream raw = super.getOutputStream();
            return new OutputStream() {
                @Override
                public void write(int b) throws java.io.IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws java.io.IOException {
                    for (int i = 0; i < len; i += piece) {
                        raw.write(b, off + i, Math.min(piece, len - i));
                        raw.flush();
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.io.InterruptedIOException();
                        }
                    }
                }
            };
        }
    }

    /** The stall test's clients never get far enough to check a certificate. */
    private static final class TrustingNothingChecked implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
