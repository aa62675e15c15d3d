package io.bindfirst.it.ops;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.LDAPConnection;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;

/**
 * Operations run on the worker pool, not on the selector threads: while one connection's bind takes
 * seconds (a PBKDF2 hash with a huge iteration count), binds on other connections are still answered.
 */
public class SlowOperationIsolationTest {
    private static final String SLOW_ROOT = "cn=Slow Root,cn=Root DNs,cn=config";

    /** OpenDJ's {PBKDF2-HMAC-SHA256} layout: iterations ':' base64(32-byte hash + 16-byte salt). */
    public static String pbkdf2(String password, int iterations) throws Exception {
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        byte[] hash = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
                .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256)).getEncoded();
        byte[] both = new byte[hash.length + salt.length];
        System.arraycopy(hash, 0, both, 0, hash.length);
        System.arraycopy(salt, 0, both, hash.length, salt.length);
        return "{PBKDF2-HMAC-SHA256}" + iterations + ":" + Base64.getEncoder().encodeToString(both);
    }

    @Test(timeOut = 120_000)
    public void cheapBindsAreAnsweredWhileAnExpensiveOneRuns() throws Exception {
        String slowPassword = pbkdf2("slow-secret", 3_000_000);
        ServerConfig.RootUser slowRoot = new ServerConfig.RootUser(DN.valueOf(SLOW_ROOT), List.of(),
                List.of(ByteString.valueOfUtf8(slowPassword)));
        try (TestServer server = TestServer.start(50, c -> c.withRootUser(slowRoot));
             LDAPConnection slow = server.connect()) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                long t0 = System.nanoTime();
                Future<Long> slowBind = pool.submit(() -> {
                    slow.bind(SLOW_ROOT, "slow-secret");
                    return System.nanoTime() - t0;
                });
                Thread.sleep(100); // let the expensive bind start
                List<Future<Long>> fast = new ArrayList<>();
                for (int t = 0; t < 3; t++) {
                    int user = t;
                    fast.add(pool.submit(() -> {
                        try (LDAPConnection c = server.connect()) {
                            for (int i = 0; i < 50; i++) {
                                c.bind(TestServer.user(user + i % 10), "password");
                            }
                        }
                        return System.nanoTime() - t0;
                    }));
                }
                long slowestFast = 0;
                for (Future<Long> f : fast) {
                    slowestFast = Math.max(slowestFast, f.get(60, TimeUnit.SECONDS));
                }
                long slowDone = slowBind.get(60, TimeUnit.SECONDS);
                // The expensive bind really was expensive, and all 150 cheap binds finished before it.
                assertTrue(slowDone > TimeUnit.MILLISECONDS.toNanos(500), "slow bind took " + slowDone / 1e6 + " ms");
                assertTrue(slowestFast < slowDone, "cheap binds (" + slowestFast / 1e6
                        + " ms) waited for the slow one (" + slowDone / 1e6 + " ms)");
                assertEquals(slow.processExtendedOperation(
                        new com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest()).getResultCode(),
                        com.unboundid.ldap.sdk.ResultCode.SUCCESS);
            } finally {
                pool.shutdownNow();
            }
        }
    }
}
