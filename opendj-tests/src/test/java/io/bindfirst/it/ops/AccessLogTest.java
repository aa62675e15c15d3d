package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.util.json.JSONObject;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.log.AccessLogFormat;
import io.bindfirst.server.log.LogRotation;

/**
 * The access log: one line per operation with the fields operators look for, never a password, and none
 * lost or split when it rotates.
 */
public class AccessLogTest {
    private static final String SECRET = "s3cr3t-Wr0ng-pw";

    @Test
    public void operationsAreLoggedWithoutPasswords() throws Exception {
        Path log;
        try (TestServer server = TestServer.start(10)) {
            log = server.instance().resolve("logs/access");
            try (LDAPConnection c = server.connect()) {
                c.bind(TestServer.user(1), "password");
                try {
                    c.bind(TestServer.user(1), SECRET);
                } catch (LDAPException expected) {
                    // invalidCredentials
                }
                c.search(TestServer.PEOPLE, SearchScope.ONE, "(uid=user.2)");
            }
            // close() flushes the log
            server.server().close();
            String text = Files.readString(log);
            String line = "(?m)^\\[[^\\]]+\\] ";
            String user1 = "dn=\"uid=user\\.1,ou=People,dc=example,dc=com\"";
            assertTrue(Pattern.compile(line + "CONNECT conn=\\d+ from=127\\.0\\.0\\.1:\\d+ to=127\\.0\\.0\\.1:\\d+"
                    + " protocol=LDAP$").matcher(text).find(), text);
            assertTrue(Pattern.compile(line + "BIND conn=\\d+ op=0 msgID=1 " + user1 + " result=0"
                    + " authDN=\"uid=user\\.1,ou=People,dc=example,dc=com\" etime=\\d+\\.\\d{3}$")
                    .matcher(text).find(), text);
            assertTrue(Pattern.compile(line + "BIND conn=\\d+ op=1 msgID=2 " + user1 + " result=49 etime=")
                    .matcher(text).find(), text);
            assertTrue(Pattern.compile(line + "SEARCH conn=\\d+ op=2 msgID=3 dn=\"ou=People,dc=example,dc=com\""
                    + " result=0 scope=\\S+ filter=\"\\(uid=user\\.2\\)\" nentries=1 etime=")
                    .matcher(text).find(), text);
            assertTrue(text.contains(" DISCONNECT conn="), text);
            assertFalse(text.contains(SECRET), "a password reached the access log");
            assertFalse(text.contains("password"), "a password reached the access log");
        }
    }

    /** ds-cfg-log-format: json: every line one JSON object (parsed by the UnboundID SDK's parser). */
    @Test
    public void jsonLinesParseAndKeepWhatClientsSent() throws Exception {
        try (TestServer server = TestServer.start(10, c -> c.withAccessLog(new ServerConfig.AccessLogFile(
                c.accessLog().file(), c.accessLog().rotation(), AccessLogFormat.JSON)))) {
            Path log = server.instance().resolve("logs/access");
            try (LDAPConnection c = server.connect()) {
                c.bind(TestServer.user(1), "password");
                try {
                    c.bind(TestServer.user(1), SECRET);
                } catch (LDAPException expected) {
                    // invalidCredentials
                }
                c.search(TestServer.PEOPLE, SearchScope.ONE, Filter.createEqualityFilter("cn", "a\" x=\"\n"));
            }
            server.server().close();
            List<String> lines = Files.readAllLines(log);
            List<JSONObject> records = new java.util.ArrayList<>();
            for (String line : lines) {
                records.add(new JSONObject(line)); // throws if a line is not one JSON object
            }
            JSONObject bind = records.stream().filter(r -> "BIND".equals(r.getFieldAsString("type"))
                    && r.getFieldAsInteger("result") == 0).findFirst().orElseThrow();
            assertEquals(bind.getFieldAsString("authDN"), TestServer.user(1));
            assertTrue(bind.getFieldAsString("time").matches("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z"), bind.toString());
            JSONObject search = records.stream().filter(r -> "SEARCH".equals(r.getFieldAsString("type")))
                    .findFirst().orElseThrow();
            // The quotes a client sent come back as they were, inside one field of one line.
            assertTrue(search.getFieldAsString("filter").startsWith("(cn=a\" x=\""), search.toString());
            assertEquals(search.getFieldAsInteger("nentries"), Integer.valueOf(0));
            assertTrue(records.stream().anyMatch(r -> "DISCONNECT".equals(r.getFieldAsString("type"))));
            String text = String.join("\n", lines);
            assertFalse(text.contains(SECRET), "a password reached the access log");
        }
    }

    /** Rotation under a bind load: every bind is in exactly one file, as one whole line. */
    @Test(timeOut = 120_000)
    public void rotationUnderLoadLosesNoRecord() throws Exception {
        int connections = 8;
        int bindsEach = 1_000;
        try (TestServer server = TestServer.start(100, c -> c.withAccessLog(new ServerConfig.AccessLogFile(
                c.accessLog().file(), new LogRotation(32 * 1024, Duration.ZERO, 1_000))))) {
            ExecutorService pool = Executors.newFixedThreadPool(connections);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < connections; t++) {
                int first = t;
                done.add(pool.submit(() -> {
                    try (LDAPConnection c = server.connect()) {
                        for (int i = 0; i < bindsEach; i++) {
                            c.bind(TestServer.user((first * bindsEach + i) % 100), "password");
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            server.server().close(); // flushes the log
            Path logs = server.instance().resolve("logs");
            List<Path> files;
            try (Stream<Path> list = Files.list(logs)) {
                files = list.filter(p -> p.getFileName().toString().startsWith("access")).toList();
            }
            assertTrue(files.size() > 5, "about 1 MB of records in 32 KiB files were not rotated: " + files);
            Pattern bind = Pattern.compile("\\[[^\\]]+\\] BIND conn=\\d+ op=\\d+ msgID=\\d+ dn=\"uid=user\\.\\d+,"
                    + "ou=People,dc=example,dc=com\" result=0 authDN=\"[^\"]+\" etime=\\d+\\.\\d{3}");
            long binds = 0;
            for (Path f : files) {
                for (String line : Files.readAllLines(f)) {
                    assertTrue(line.startsWith("[") && !line.contains("DROPPED"), "a whole record: " + line);
                    if (line.contains("] BIND ")) {
                        assertTrue(bind.matcher(line).matches(), "a whole record: " + line);
                        binds++;
                    }
                }
            }
            assertEquals(binds, (long) connections * bindsEach, "binds logged across " + files.size() + " files");
        }
    }
}
