package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig.Listener.Inline;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;
import io.bindfirst.server.work.WorkQueue;

/**
 * Where a bind runs with the verified-credential cache: a user stored with a PBKDF2 costly enough for the slow
 * lane (above the shipped 100,000 iterations) re-binding with the right password runs inline on the selector
 * thread, with no worker and no slow lane; a wrong password still goes to the slow lane and costs a derivation
 * there, whatever was proven before. The slow lane's work is read as the CPU time of its threads (the server
 * runs in this JVM); the workers' as the main queue's count of queued operations.
 */
public class VerifiedCredentialsBindTest {
    private static final String USER = "uid=costly.user," + TestServer.PEOPLE;
    private static final String PASSWORD = "costly password";
    /** About 0.1 s of CPU here: far above the measurement's noise, far below the test's patience. */
    private static final int ITERATIONS = 200_000;
    /** Lane CPU that shows a derivation ran there (a quarter of one, at least). */
    private static final long DERIVED_NANOS = 20_000_000;

    private static TestServer start(int cacheSize) throws Exception {
        TestServer server = TestServer.start(1, c -> c.withPasswords(c.passwords()
                .withVerifiedCredentialCacheSize(cacheSize))
                .withListener(c.listener().withInlineOperations(Inline.ALWAYS)));
        String hash = "{PBKDF2-HMAC-SHA256}"
                + new Pbkdf2HmacSha256Scheme(ITERATIONS).encodeValue(ByteString.valueOfUtf8(PASSWORD));
        try (LDAPConnection root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD)) {
            root.add(USER, List.of(new Attribute("objectClass", "top", "person", "organizationalPerson",
                    "inetOrgPerson"), new Attribute("uid", "costly.user"), new Attribute("cn", "C"),
                    new Attribute("sn", "U"), new Attribute("userPassword", hash)));
        }
        return server;
    }

    /** Where one bind ran: queued to the workers or not, and the slow lane's CPU during it. */
    private record Where(long queued, long laneNanos) {
        boolean inlineOnly() {
            return queued == 0 && laneNanos < DERIVED_NANOS;
        }

        boolean derivedOnTheLane() {
            return queued == 1 && laneNanos >= DERIVED_NANOS;
        }
    }

    private interface Bind {
        void run() throws LDAPException;
    }

    private static Where where(TestServer server, Bind bind) throws LDAPException {
        WorkQueue queue = server.server().workQueue();
        long queuedBefore = queue.started() - queue.startedInline();
        long laneBefore = laneCpuNanos();
        bind.run();
        return new Where(queue.started() - queue.startedInline() - queuedBefore, laneCpuNanos() - laneBefore);
    }

    private static long laneCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("slow-lane-")) {
                sum += Math.max(0, threads.getThreadCpuTime(t.getThreadId()));
            }
        }
        return sum;
    }

    @Test(timeOut = 60_000)
    public void aProvenPasswordReBindsInlineAndAWrongOneStillDerivesOnTheSlowLane() throws Exception {
        try (TestServer server = start(100); LDAPConnection c = server.connect()) {
            Where first = where(server, () -> c.bind(USER, PASSWORD));
            assertTrue(first.derivedOnTheLane(), "the first bind proves the password on the slow lane: " + first);
            for (int i = 0; i < 3; i++) {
                Where again = where(server, () -> c.bind(USER, PASSWORD));
                assertTrue(again.inlineOnly(), "a proven password re-binds inline: " + again);
                assertEquals(AuthenticatedUsersTest.whoAmI(c), "dn:" + USER);
            }
            for (int i = 0; i < 2; i++) {
                Where wrong = where(server, () -> {
                    LDAPException e = expectThrows(LDAPException.class, () -> c.bind(USER, PASSWORD + "!"));
                    assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
                });
                assertTrue(wrong.derivedOnTheLane(), "a wrong password is as costly as ever: " + wrong);
            }
            assertTrue(where(server, () -> c.bind(USER, PASSWORD)).inlineOnly());
        }
    }

    @Test(timeOut = 60_000)
    public void offEveryReBindDerivesOnTheSlowLane() throws Exception {
        try (TestServer server = start(0); LDAPConnection c = server.connect()) {
            for (int i = 0; i < 3; i++) {
                Where bind = where(server, () -> c.bind(USER, PASSWORD));
                assertTrue(bind.derivedOnTheLane(), "with the cache off: " + bind);
            }
        }
    }
}
