package io.bindfirst.it.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.util.ssl.PEMFileTrustManager;
import com.unboundid.util.ssl.SSLUtil;

import io.bindfirst.it.support.TestServer;

/**
 * The handshake tests with {@code ds-cfg-ssl-handshake-threads: 2}: handshake steps run on their own threads,
 * reads are suspended and resumed there while a handshake is in progress; those threads run at the shipped
 * {@code ds-cfg-ssl-handshake-thread-nice}.
 */
public class TlsHandshakeOffSelectorTest extends TlsHandshakeTest {
    @Override
    protected int handshakeThreads() {
        return 2;
    }

    /** The shipped value ({@code config.ldif}), which {@link TestServer} otherwise sets to 0. */
    @Override
    protected int handshakeNice() {
        return 19;
    }

    @Test
    public void handshakeThreadsRunAtTheShippedNiceValue() throws Exception {
        SSLContext client = new SSLUtil(new PEMFileTrustManager(ca.toFile())).createSSLContext("TLSv1.3");
        for (int i = 0; i < 4; i++) { // handshakes on both threads (the pool starts one per task until it has two)
            try (LDAPConnection c = new LDAPConnection(client.getSocketFactory(), "localhost", server.ldapsPort())) {
                assertEquals(c.bind(TestServer.user(i), TestServer.USER_PASSWORD).getResultCode(), ResultCode.SUCCESS);
            }
        }
        List<Integer> nice = niceValues("tls-handshake");
        assertFalse(nice.isEmpty(), "no tls-handshake thread in this JVM");
        // 19 whatever the JVM was started with: a thread's nice value is only ever raised, and 19 is the most.
        for (int n : nice) {
            assertEquals(n, 19, "nice values of the tls-handshake threads: " + nice);
        }
    }

    /** The nice values of this JVM's threads of that name (/proc/self/task/N/stat: the 19th field). */
    static List<Integer> niceValues(String threadName) throws IOException {
        List<Integer> values = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    if (!Files.readString(task.resolve("comm")).strip().equals(threadName)) {
                        continue;
                    }
                    String stat = Files.readString(task.resolve("stat"));
                    // after the name in parentheses: state is field 3, nice field 19
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    values.add(Integer.parseInt(fields[19 - 3]));
                } catch (IOException ended) {
                    // the thread ended between the listing and the reads
                }
            }
        }
        return values;
    }
}
