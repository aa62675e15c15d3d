package io.bindfirst.it.stress;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;

/**
 * An ACI written over LDAP decides every operation that starts after the write is acknowledged: a writer turns a
 * deny on and off, and after each acknowledgement a second connection must see its effect at once; meanwhile
 * readers search without pause (hunting a torn or half-published rule set: every answer must be one of the two
 * states, never an error).
 */
public class AciChangeRaceTest {
    private static final int TOGGLES = 300;
    private static final String DENY = "(targetattr=\"mail\")(version 3.0; acl \"race\"; deny (read) "
            + "userdn=\"ldap:///all\";)";

    @Test
    public void anAcknowledgedAciChangeDecidesTheNextOperation() throws Exception {
        ExecutorService readers = Executors.newFixedThreadPool(3);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong searches = new AtomicLong();
        try (TestServer server = TestServer.start(20);
             LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
             LDAPConnection checker = server.bindAs(TestServer.user(1), TestServer.USER_PASSWORD)) {
            Future<?>[] running = new Future<?>[3];
            for (int i = 0; i < running.length; i++) {
                int n = i;
                running[i] = readers.submit(() -> {
                    try (LDAPConnection c = server.bindAs(TestServer.user(2 + n), TestServer.USER_PASSWORD)) {
                        while (!stop.get()) {
                            SearchResultEntry e = c.searchForEntry(TestServer.user(10), SearchScope.BASE,
                                    "(objectClass=*)", "cn", "mail");
                            assertTrue(e.hasAttribute("cn"));
                            searches.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            for (int i = 0; i < TOGGLES; i++) {
                boolean denied = i % 2 == 0;
                root.modify(TestServer.PEOPLE, new Modification(denied ? ModificationType.ADD : ModificationType.DELETE,
                        "aci", DENY));
                SearchResultEntry seen = checker.searchForEntry(TestServer.user(10), SearchScope.BASE,
                        "(objectClass=*)", "mail");
                assertEquals(seen.hasAttribute("mail"), !denied, "toggle " + i + ": the acknowledged ACI change "
                        + "was not in force for the next search");
            }
            stop.set(true);
            for (Future<?> f : running) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertTrue(searches.get() > 0);
        } finally {
            stop.set(true);
            readers.shutdownNow();
        }
    }
}
