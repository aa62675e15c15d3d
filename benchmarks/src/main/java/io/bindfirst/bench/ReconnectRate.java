package io.bindfirst.bench;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import org.conscrypt.Conscrypt;

/**
 * A reconnect storm against any LDAP server, for the TLS benchmark: each client thread connects, does the TLS
 * handshake (full, or resuming the session its client cache holds), binds as a random sample user, unbinds
 * and closes, for a fixed time. Optionally, meanwhile, other threads bind over established connections and
 * their bind latency is reported: what a storm costs the connections already up.
 *
 * <p>The LDAP messages are encoded here (a simple bind and an unbind are a few bytes) so that the client
 * spends its CPU on TLS and the socket, not on an SDK; results are checked (anything but success counts as
 * an error). The client trusts any certificate: it measures, it does not authenticate the server.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.bindfirst.bench.ReconnectRate --help</pre>
 */
public final class ReconnectRate {
    private static final String USAGE = """
            usage: ReconnectRate --port P [options]
              --host H            server address (127.0.0.1)
              --port P            LDAPS port (or LDAP port with --tls none)
              --tls MODE          full | resumed | none (full): full handshakes every time, resumed ones after
                                  each thread's first (one client session cache per thread), or no TLS
              --protocol V        TLSv1.3 | TLSv1.2 (TLSv1.3)
              --client-tls P      jdk | conscrypt (jdk): whose TLS the client uses; the JDK's costs the client
                                  several times a native one's CPU per handshake, on the cores the server shares
              --threads N         storm threads (16)
              --established N     threads binding meanwhile over established TLS connections (0)
              --seconds S         measured time (10), after --warmup S (5)
              --users N           binds as uid=user.[0..N-1],ou=People,dc=example,dc=com (5000)
              --password P        (password)
            Prints one line: RESULT tls=... protocol=... threads=... conns_per_s=... errors=... storm_p50_ms=...
            storm_p99_ms=... [established_binds_per_s=... established_p50_ms=... established_p99_ms=...]
            Exit: 0 measured; 1 no storm connection (or no established bind) succeeded; 2 usage.""";

    private final String host;
    private final int port;
    private final String tls;
    private final String protocol;
    private final String clientTls;
    private final int users;
    private final byte[] password;
    private volatile boolean measuring;
    private volatile boolean stopping;

    private ReconnectRate(Map<String, String> o) {
        this.host = o.getOrDefault("host", "127.0.0.1");
        this.port = Integer.parseInt(o.get("port"));
        this.tls = o.getOrDefault("tls", "full");
        this.protocol = o.getOrDefault("protocol", "TLSv1.3");
        this.clientTls = o.getOrDefault("client-tls", "jdk");
        this.users = Integer.parseInt(o.getOrDefault("users", "5000"));
        this.password = o.getOrDefault("password", "password").getBytes(StandardCharsets.UTF_8);
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = Options.parse("ReconnectRate", USAGE, args, List.of("host", "port", "tls", "protocol",
                "threads", "established", "seconds", "warmup", "users", "password", "client-tls"), "port");
        if (o == null) {
            return;
        }
        if (!List.of("full", "resumed", "none").contains(o.getOrDefault("tls", "full"))) {
            usage("--tls is full, resumed or none");
        }
        if (!List.of("jdk", "conscrypt").contains(o.getOrDefault("client-tls", "jdk"))) {
            usage("--client-tls is jdk or conscrypt");
        }
        int code;
        try {
            code = new ReconnectRate(o).run(Integer.parseInt(o.getOrDefault("threads", "16")),
                    Integer.parseInt(o.getOrDefault("established", "0")),
                    Integer.parseInt(o.getOrDefault("warmup", "5")), Integer.parseInt(o.getOrDefault("seconds", "10")));
        } catch (NumberFormatException e) {
            usage("a number was expected: " + e.getMessage());
            return;
        }
        System.exit(code);
    }

    private static void usage(String problem) {
        Options.fail("ReconnectRate", USAGE, problem);
    }

    private int run(int stormThreads, int establishedThreads, int warmupSeconds, int seconds) throws Exception {
        List<Worker> storm = new ArrayList<>();
        List<Worker> established = new ArrayList<>();
        for (int i = 0; i < stormThreads; i++) {
            storm.add(new Worker("storm-" + i, false));
        }
        for (int i = 0; i < establishedThreads; i++) {
            established.add(new Worker("established-" + i, true));
        }
        List<Worker> all = new ArrayList<>(storm);
        all.addAll(established);
        all.forEach(Thread::start);
        Thread.sleep(warmupSeconds * 1000L);
        measuring = true;
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000L);
        measuring = false;
        double elapsed = (System.nanoTime() - t0) / 1e9;
        stopping = true;
        for (Worker w : all) {
            w.join(10_000);
        }
        Summary s = Summary.of(storm, elapsed);
        Summary e = Summary.of(established, elapsed);
        StringBuilder line = new StringBuilder(String.format(
                "RESULT tls=%s protocol=%s client_tls=%s threads=%d conns_per_s=%.1f errors=%d storm_p50_ms=%.3f"
                + " storm_p99_ms=%.3f", tls, tls.equals("none") ? "none" : protocol, clientTls, stormThreads,
                s.perSecond, s.errors, s.p50, s.p99));
        if (establishedThreads > 0) {
            line.append(String.format(" established=%d established_binds_per_s=%.1f established_errors=%d"
                    + " established_p50_ms=%.3f established_p99_ms=%.3f", establishedThreads, e.perSecond,
                    e.errors, e.p50, e.p99));
        }
        System.out.println(line);
        for (Worker w : all) {
            if (w.firstError != null) {
                System.err.println("first error of " + w.getName() + ": " + w.firstError);
                break;
            }
        }
        boolean stormFailed = stormThreads > 0 && s.count == 0;
        boolean establishedFailed = establishedThreads > 0 && e.count == 0;
        return stormFailed || establishedFailed ? 1 : 0;
    }

    /** Counts and latency percentiles over some workers' measured window. */
    private record Summary(long count, long errors, double perSecond, double p50, double p99) {
        static Summary of(List<Worker> workers, double seconds) {
            long count = 0;
            long errors = 0;
            long[] all = new long[0];
            for (Worker w : workers) {
                count += w.count;
                errors += w.errors;
                int n = all.length;
                all = Arrays.copyOf(all, n + w.latencyCount);
                System.arraycopy(w.latencies, 0, all, n, w.latencyCount);
            }
            Arrays.sort(all);
            return new Summary(count, errors, count / seconds, percentile(all, 0.50), percentile(all, 0.99));
        }

        private static double percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
        }
    }

    private final class Worker extends Thread {
        private final boolean persistent;
        private final SSLSocketFactory factory;
        /** Names the session in the client cache: one name per thread resumes, a new name each time does not. */
        private final AtomicLong names = new AtomicLong();
        long count;
        long errors;
        long[] latencies = new long[1 << 16];
        int latencyCount;
        Exception firstError;
        private int messageId;

        Worker(String name, boolean persistent) throws Exception {
            super(name);
            setDaemon(true);
            this.persistent = persistent;
            if (tls.equals("none") && !persistent) {
                this.factory = null;
            } else {
                SSLContext ctx = clientTls.equals("conscrypt")
                        ? SSLContext.getInstance(protocol, Conscrypt.newProvider()) : SSLContext.getInstance(protocol);
                ctx.init(null, new TrustManager[] {new TrustingAny()}, new SecureRandom());
                this.factory = ctx.getSocketFactory();
            }
        }

        @Override
        public void run() {
            Socket held = null;
            while (!stopping) {
                long t0 = System.nanoTime();
                try {
                    if (persistent) {
                        if (held == null) {
                            held = connect(true);
                        }
                        bind(held);
                    } else {
                        try (Socket s = connect(false)) {
                            bind(s);
                            unbind(s);
                        }
                    }
                    record(System.nanoTime() - t0);
                } catch (Exception e) {
                    if (firstError == null) {
                        firstError = e;
                    }
                    if (measuring) {
                        errors++;
                    }
                    closeQuietly(held);
                    held = null;
                }
            }
            closeQuietly(held);
        }

        private void record(long nanos) {
            if (!measuring) {
                return;
            }
            count++;
            if (latencyCount == latencies.length) {
                latencies = Arrays.copyOf(latencies, latencies.length * 2);
            }
            latencies[latencyCount++] = nanos;
        }

        private Socket connect(boolean alwaysTls) throws IOException {
            Socket plain = new Socket();
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(host, port), 10_000);
            plain.setSoTimeout(30_000);
            messageId = 0;
            if (factory == null || (!alwaysTls && tls.equals("none"))) {
                return plain;
            }
            String peer = tls.equals("resumed") || persistent ? "session-" + getName()
                    : "full-" + names.getAndIncrement();
            SSLSocket s = (SSLSocket) factory.createSocket(plain, peer, port, true);
            s.setEnabledProtocols(new String[] {protocol});
            s.startHandshake();
            return s;
        }

        private void bind(Socket s) throws IOException {
            String dn = "uid=user." + ThreadLocalRandom.current().nextInt(users) + ",ou=People,dc=example,dc=com";
            ByteArrayOutputStream bind = new ByteArrayOutputStream();
            bind.write(new byte[] {0x02, 0x01, 0x03}); // version 3
            writeElement(bind, 0x04, dn.getBytes(StandardCharsets.UTF_8));
            writeElement(bind, 0x80, password);
            ByteArrayOutputStream message = new ByteArrayOutputStream();
            writeElement(message, 0x02, new byte[] {(byte) nextMessageId()});
            writeElement(message, 0x60, bind.toByteArray());
            OutputStream out = s.getOutputStream();
            ByteArrayOutputStream envelope = new ByteArrayOutputStream();
            writeElement(envelope, 0x30, message.toByteArray());
            out.write(envelope.toByteArray());
            out.flush();
            int result = readBindResult(s.getInputStream());
            if (result != 0) {
                throw new IOException("bind result " + result);
            }
        }

        /** 1 to 127: one byte, and never in flight twice (one request at a time). */
        private int nextMessageId() {
            messageId = messageId % 127 + 1;
            return messageId;
        }

        private void unbind(Socket s) throws IOException {
            s.getOutputStream().write(new byte[] {0x30, 0x05, 0x02, 0x01, (byte) nextMessageId(), 0x42, 0x00});
            s.getOutputStream().flush();
        }
    }

    private static void writeElement(ByteArrayOutputStream out, int tag, byte[] value) {
        out.write(tag);
        int n = value.length;
        if (n < 0x80) {
            out.write(n);
        } else if (n < 0x100) {
            out.write(0x81);
            out.write(n);
        } else {
            out.write(0x82);
            out.write(n >> 8);
            out.write(n);
        }
        out.write(value, 0, n);
    }

    /** Reads one LDAPMessage and returns the result code of the BindResponse in it. */
    private static int readBindResult(InputStream in) throws IOException {
        if (read(in) != 0x30) {
            throw new IOException("not an LDAP message");
        }
        byte[] body = new byte[readLength(in)];
        int off = 0;
        while (off < body.length) {
            int n = in.read(body, off, body.length - off);
            if (n < 0) {
                throw new EOFException("connection closed in a response");
            }
            off += n;
        }
        int i = 2 + (body[1] & 0xff); // message ID
        if ((body[i] & 0xff) != 0x61) {
            throw new IOException("not a bind response (tag " + (body[i] & 0xff) + ")");
        }
        i += (body[i + 1] & 0x80) == 0 ? 2 : 2 + (body[i + 1] & 0x7f);
        return body[i + 2] & 0xff; // ENUMERATED resultCode: 0a 01 code
    }

    private static int readLength(InputStream in) throws IOException {
        int first = read(in);
        if (first < 0x80) {
            return first;
        }
        int len = 0;
        for (int k = 0; k < (first & 0x7f); k++) {
            len = (len << 8) | read(in);
        }
        return len;
    }

    private static int read(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("connection closed");
        }
        return b;
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing after an error: nothing to add
            }
        }
    }

    /** The benchmark measures TLS cost; it does not authenticate the server. */
    private static final class TrustingAny implements X509TrustManager {
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
