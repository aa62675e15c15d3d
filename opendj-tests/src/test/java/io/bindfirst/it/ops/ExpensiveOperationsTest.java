package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.SearchResult;
import com.unboundid.ldap.sdk.SearchScope;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;

/**
 * The slow lane from the outside: a bind whose stored password is an expensive PBKDF2 (300,000 iterations,
 * above the shipped 100,000 threshold) and an unindexed search are answered correctly from it, and while
 * cheap binds keep the workers busy it gives way to them (it pauses) instead of taking the CPU.
 */
public class ExpensiveOperationsTest {
    private static final String SLOW_USER = "uid=slow.user," + TestServer.PEOPLE;
    private static final String SLOW_PASSWORD = "slow password";
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        // Without the verified-credential cache: the slow user re-binds with the right password, and each bind
        // must be the costly one (VerifiedCredentialsBindTest covers the cache on the bind path).
        server = TestServer.start(200, c -> c.withPasswords(c.passwords().withVerifiedCredentialCacheSize(0)));
        String hash = "{PBKDF2-HMAC-SHA256}"
                + new Pbkdf2HmacSha256Scheme(300_000).encodeValue(ByteString.valueOfUtf8(SLOW_PASSWORD));
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            root.add(SLOW_USER, List.of(new Attribute("objectClass", "top", "person", "organizationalPerson",
                    "inetOrgPerson"), new Attribute("uid", "slow.user"), new Attribute("cn", "Slow User"),
                    new Attribute("sn", "User"), new Attribute("userPassword", hash)));
        }
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test(timeOut = 60_000)
    public void anExpensiveBindIsAnsweredCorrectlyFromTheSlowLane() throws Exception {
        try (LDAPConnection c = server.connect()) {
            assertEquals(c.bind(SLOW_USER, SLOW_PASSWORD).getResultCode(), ResultCode.SUCCESS);
            assertEquals(whoAmI(c), "dn:" + SLOW_USER);
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(SLOW_USER, "wrong"));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
            // The failed bind left the connection anonymous (RFC 4513 4).
            String anonymous = whoAmI(c);
            assertTrue(anonymous == null || anonymous.isEmpty(), "still authenticated as " + anonymous);
        }
    }

    private static String whoAmI(LDAPConnection c) throws LDAPException {
        return ((WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest())).getAuthorizationID();
    }

    @Test(timeOut = 60_000)
    public void anUnindexedSearchIsAnsweredCorrectlyFromTheSlowLane() throws Exception {
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            SearchResult r = root.search(TestServer.PEOPLE, SearchScope.SUB, "(employeeNumber=42)", "uid");
            assertEquals(r.getEntryCount(), 1);
            assertEquals(r.getSearchEntries().get(0).getAttributeValue("uid"), "user.42");
        }
    }

    @Test(timeOut = 120_000)
    public void underCheapBindsTheSlowLaneGivesWay() throws Exception {
        long pausedBefore = server.server().context().slowLane().timesPaused();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger cheapErrors = new AtomicInteger();
        AtomicLong cheapBinds = new AtomicLong();
        List<Thread> load = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int first = t;
            Thread th = new Thread(() -> {
                try (LDAPConnection c = server.connect()) {
                    for (int i = first; !stop.get(); i += 4) {
                        c.bind(TestServer.user(i % 200), TestServer.USER_PASSWORD);
                        cheapBinds.incrementAndGet();
                    }
                } catch (LDAPException e) {
                    cheapErrors.incrementAndGet();
                }
            });
            th.start();
            load.add(th);
        }
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < 3; i++) {
                assertEquals(c.bind(SLOW_USER, SLOW_PASSWORD).getResultCode(), ResultCode.SUCCESS);
            }
        } finally {
            stop.set(true);
            for (Thread th : load) {
                th.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
        assertEquals(cheapErrors.get(), 0);
        assertTrue(cheapBinds.get() > 0, "no cheap bind ran");
        assertTrue(server.server().context().slowLane().timesPaused() > pausedBefore,
                "the slow lane never gave way to the cheap binds");
    }
}
