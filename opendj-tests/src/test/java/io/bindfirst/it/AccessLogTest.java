package io.bindfirst.it;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.SearchScope;

/** The access log: one line per operation with the fields operators look for, and never a password. */
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
}
