package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.BooleanSupplier;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.ResultCode;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.auth.AfterBind;
import io.bindfirst.server.pwd.PasswordPolicies;
import io.bindfirst.server.pwd.PasswordPolicy;

/**
 * What a successful bind writes after its answer, end to end on a real server and JE: the last-login time at the
 * policy's precision (once per account per day with {@code yyyyMMdd}, however many binds), and the move of a
 * password off a deprecated scheme, at most the policy's number a second. The sample users' passwords are
 * {SSHA}; the server's default scheme is SSHA512.
 */
public class AfterBindTest {
    private static final DN DAILY = PasswordPolicies.DEFAULT_DN;
    private static final DN MIGRATING = PasswordPolicies.PARENT.child("cn", "Migrating");
    private static final DN ONE_A_SECOND = PasswordPolicies.PARENT.child("cn", "One A Second");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyyMMdd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private TestServer server;
    private LDAPConnection root;

    @BeforeClass
    public void start() throws Exception {
        PasswordPolicy.OnBind lastLogin = new PasswordPolicy.OnBind("ds-pwp-last-login-time", DAY, Set.of(), 0);
        PasswordPolicies policies = new PasswordPolicies(
                PasswordPolicy.withoutLockout(DAILY).withOnBind(lastLogin), List.of(
                        PasswordPolicy.withoutLockout(MIGRATING).withOnBind(
                                new PasswordPolicy.OnBind(null, null, Set.of("SSHA"), 100)),
                        PasswordPolicy.withoutLockout(ONE_A_SECOND).withOnBind(
                                new PasswordPolicy.OnBind(null, null, Set.of("SSHA"), 1))));
        server = TestServer.start(40, c -> c.withPasswordPolicies(policies));
        root = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        if (root != null) {
            root.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private AfterBind afterBind() {
        return server.server().context().accounts().afterBind();
    }

    @Test
    public void manyBindsOfOneAccountWriteItsLastLoginOnceADay() throws Exception {
        String dn = TestServer.user(1);
        long before = afterBind().writes().written();
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < 50; i++) {
                c.bind(dn, "password");
            }
        }
        String today = DAY.format(Instant.now());
        waitFor(() -> today.equals(lastLogin(dn)), "the last-login time of " + dn);
        waitFor(() -> afterBind().writes().written() - before >= 1, "the write counted");
        Thread.sleep(300);
        assertEquals(afterBind().writes().written() - before, 1, "fifty binds, one write");
        long queued = afterBind().lastLoginsQueued();
        try (LDAPConnection c = server.connect()) {
            for (int i = 0; i < 20; i++) {
                c.bind(dn, "password");
            }
        }
        assertEquals(afterBind().lastLoginsQueued(), queued, "once stored, today's time is not even queued");
        // Another account's first bind writes its own, once.
        try (LDAPConnection c = server.connect()) {
            c.bind(TestServer.user(2), "password");
            c.bind(TestServer.user(2), "password");
        }
        waitFor(() -> today.equals(lastLogin(TestServer.user(2))), "the last-login time of user 2");
        waitFor(() -> afterBind().writes().written() - before >= 2, "the write counted");
        Thread.sleep(300);
        assertEquals(afterBind().writes().written() - before, 2);
        com.unboundid.ldap.sdk.SearchResultEntry monitor = root.getEntry("cn=Password Policy,cn=monitor",
                "ds-mon-deferred-writes", "ds-mon-last-logins-queued", "ds-mon-deferred-writes-waiting");
        assertEquals(monitor.getAttributeValueAsLong("ds-mon-deferred-writes").longValue(),
                afterBind().writes().written(), "cn=monitor says what was written");
        assertTrue(monitor.getAttributeValueAsLong("ds-mon-last-logins-queued") >= 2, monitor.toLDIFString());
        assertEquals(monitor.getAttributeValueAsLong("ds-mon-deferred-writes-waiting").longValue(), 0L);
        // A failed bind writes nothing.
        String other = TestServer.user(3);
        try (LDAPConnection c = server.connect()) {
            LDAPException e = org.testng.Assert.expectThrows(LDAPException.class, () -> c.bind(other, "wrong"));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        }
        Thread.sleep(300);
        assertEquals(lastLogin(other), null);
    }

    @Test
    public void aBindMovesItsPasswordOffADeprecatedScheme() throws Exception {
        String dn = TestServer.user(10);
        String wrong = TestServer.user(11);
        for (String u : new String[] {dn, wrong}) {
            root.modify(u, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn",
                    MIGRATING.toString()));
        }
        assertTrue(storedPassword(dn).startsWith("{SSHA}"), storedPassword(dn));
        server.bindAs(dn, "password").close();
        waitFor(() -> storedPassword(dn).startsWith("{SSHA512}"), "the password of " + dn + " in SSHA512");
        assertEquals(root.getEntry(dn, "userPassword").getAttributeValues("userPassword").length, 1,
                "replaced, not added");
        server.bindAs(dn, "password").close(); // the same password, now in the default scheme
        assertEquals(root.getEntry(dn, "pwdChangedTime").getAttributeValue("pwdChangedTime"), null,
                "a rehash is not a password change");
        try (LDAPConnection c = server.connect()) {
            LDAPException e = org.testng.Assert.expectThrows(LDAPException.class, () -> c.bind(wrong, "wrong"));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS);
        }
        Thread.sleep(300);
        assertTrue(storedPassword(wrong).startsWith("{SSHA}"), "a wrong password moves nothing");
    }

    /** With one rehash a second, a burst of binds moves at most one account per second it spans. */
    @Test
    public void rehashesAreRateLimited() throws Exception {
        List<String> users = new java.util.ArrayList<>();
        for (int n = 20; n < 40; n++) {
            String dn = TestServer.user(n);
            users.add(dn);
            root.modify(dn, new Modification(ModificationType.REPLACE, "ds-pwp-password-policy-dn",
                    ONE_A_SECOND.toString()));
        }
        long queued = afterBind().rehashesQueued();
        long postponed = afterBind().rehashesPostponed();
        long startSecond = Math.floorDiv(System.currentTimeMillis(), 1000L);
        try (LDAPConnection c = server.connect()) {
            for (String dn : users) {
                c.bind(dn, "password");
            }
        }
        long seconds = Math.floorDiv(System.currentTimeMillis(), 1000L) - startSecond + 1;
        long moved = afterBind().rehashesQueued() - queued;
        assertTrue(moved >= 1 && moved <= seconds, moved + " rehashes in " + seconds + " s");
        assertEquals(afterBind().rehashesPostponed() - postponed, users.size() - moved);
        waitFor(() -> users.stream().filter(u -> storedPassword(u).startsWith("{SSHA512}")).count() == moved,
                moved + " passwords in SSHA512");
        Thread.sleep(300);
        assertEquals(users.stream().filter(u -> storedPassword(u).startsWith("{SSHA512}")).count(), moved);
    }

    private String lastLogin(String dn) {
        try {
            return root.getEntry(dn, "ds-pwp-last-login-time").getAttributeValue("ds-pwp-last-login-time");
        } catch (LDAPException e) {
            throw new AssertionError(e);
        }
    }

    private String storedPassword(String dn) {
        try {
            return root.getEntry(dn, "userPassword").getAttributeValue("userPassword");
        } catch (LDAPException e) {
            throw new AssertionError(e);
        }
    }

    private static void waitFor(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 10 s: " + what);
            }
            Thread.sleep(20);
        }
    }
}
