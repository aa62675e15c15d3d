package io.bindfirst.it.ops;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.CompareRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.PLAINBindRequest;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.PasswordModifyExtendedRequest;

import io.bindfirst.it.support.ForkedServer;
import io.bindfirst.it.support.TestServer;

/**
 * No password, and no stored password value, in any log: a server in its own process (as bin/start-ds runs it,
 * with the shipped configuration's access log and its whole output kept in logs/server.out) sees binds right and
 * wrong (simple and SASL PLAIN), adds, modifies and Password Modify requests right and wrong, compares and filters
 * naming passwords; once it has stopped, every file under its logs/ is read for each password and each stored
 * value.
 */
public class LogSecretsTest {
    private static final String[] SECRETS = {
        "Sekrit-set-by-root-1", "Sekrit-changed-by-user-2", "Sekrit-wrong-bind-3", "Sekrit-added-4",
        "Sekrit-compared-5", "Sekrit-in-a-filter-6", "Sekrit-wrong-old-7", "Sekrit-unknown-dn-8",
        "Sekrit-refused-add-9", "Sekrit-plain-wrong-10"
    };

    @Test(timeOut = 300_000)
    public void noLogHoldsAPasswordOrAStoredValue() throws Exception {
        List<String> stored = new ArrayList<>();
        try (ForkedServer server = ForkedServer.start(20, List.of("-Xmx192m"))) {
            String user = TestServer.user(1);
            String added = "uid=secret.added," + TestServer.PEOPLE;
            try (LDAPConnection root = new LDAPConnection("127.0.0.1", server.port(), TestServer.ROOT_DN,
                    TestServer.ROOT_PASSWORD)) {
                root.modify(user, new Modification(ModificationType.REPLACE, "userPassword", SECRETS[0]));
                try (LDAPConnection self = new LDAPConnection("127.0.0.1", server.port(), user, SECRETS[0])) {
                    self.processExtendedOperation(new PasswordModifyExtendedRequest(null, SECRETS[0], SECRETS[1]));
                    self.processExtendedOperation(new PasswordModifyExtendedRequest(null, SECRETS[6], "x-y-z-w"));
                }
                try (LDAPConnection c = new LDAPConnection("127.0.0.1", server.port())) {
                    refused(() -> c.bind(user, SECRETS[2]));
                    refused(() -> c.bind("uid=nobody," + TestServer.PEOPLE, SECRETS[7]));
                    c.bind(new PLAINBindRequest("u:user.1", SECRETS[1]));
                    refused(() -> c.bind(new PLAINBindRequest("dn:" + user, SECRETS[9])));
                    c.search(TestServer.PEOPLE, SearchScope.SUB, "(userPassword=" + SECRETS[5] + ")");
                }
                root.add(added, new Attribute("objectClass", "top", "person", "organizationalPerson",
                        "inetOrgPerson"), new Attribute("uid", "secret.added"), new Attribute("cn", "s"),
                        new Attribute("sn", "s"), new Attribute("userPassword", SECRETS[3]));
                refused(() -> root.add("uid=refused," + TestServer.PEOPLE, new Attribute("objectClass", "top",
                        "person"), new Attribute("uid", "refused"), new Attribute("userPassword", SECRETS[8])));
                refused(() -> root.compare(new CompareRequest(user, "userPassword", SECRETS[4])));
                for (String dn : new String[] {user, added}) {
                    for (String v : root.getEntry(dn, "userPassword").getAttributeValues("userPassword")) {
                        stored.add(v);
                    }
                }
            }
            server.stop(); // the logs are flushed and closed
            List<Path> logs;
            try (Stream<Path> files = Files.walk(server.instance().resolve("logs"))) {
                logs = files.filter(Files::isRegularFile).toList();
            }
            assertTrue(logs.stream().anyMatch(p -> p.getFileName().toString().equals("access")), logs.toString());
            assertTrue(logs.stream().anyMatch(p -> p.getFileName().toString().equals("server.out")), logs.toString());
            // The server log (cn=File-Based Error Logger) took the INFO lines; the console kept warnings only.
            String errors = Files.readString(server.instance().resolve("logs/errors"));
            assertTrue(errors.contains("severity=INFO") && errors.contains("sample entries"), errors);
            String out = Files.readString(server.instance().resolve("logs/server.out"));
            assertFalse(out.contains(" INFO "), out);
            assertTrue(stored.size() == 2 && stored.stream().allMatch(v -> v.startsWith("{")), stored.toString());
            for (Path log : logs) {
                String text = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1);
                for (String secret : SECRETS) {
                    assertFalse(text.contains(secret), log + " holds the password " + secret);
                }
                for (String value : stored) {
                    String hash = value.substring(value.indexOf('}') + 1);
                    assertFalse(text.contains(hash), log + " holds a stored password value");
                }
            }
        }
    }

    private interface Call {
        void run() throws LDAPException;
    }

    /** Runs a request the server refuses (the refusal is the point: it must not log what was sent). */
    private static void refused(Call call) {
        try {
            call.run();
        } catch (LDAPException expected) {
            // any LDAP error: the test is about the logs
        }
    }
}
