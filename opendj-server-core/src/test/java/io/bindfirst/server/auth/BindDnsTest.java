package io.bindfirst.server.auth;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.ServerSchema;

/** Bind DNs parsed once: the same DN as a fresh parse, under any interleaving, within bounds. */
public class BindDnsTest {
    private Schema schema;

    @BeforeClass
    public void loadSchema() {
        schema = ServerSchema.load();
    }

    @Test
    public void aKeptDnIsTheSameAsAFreshParseAndIsReused() {
        BindDns dns = new BindDns(schema, 100);
        DN first = dns.parse("uid=User.1, ou=People,dc=example,dc=com");
        DN again = dns.parse("uid=User.1, ou=People,dc=example,dc=com");
        assertSame(again, first);
        DN fresh = DN.valueOf("uid=User.1, ou=People,dc=example,dc=com", schema);
        assertEquals(first, fresh);
        assertEquals(first.toString(), fresh.toString());
        assertEquals(first.toNormalizedByteString(), fresh.toNormalizedByteString());
        // Another spelling of the same DN is its own key, and equal by the schema's rules.
        assertEquals(dns.parse("UID=user.1,OU=people,DC=Example,DC=com"), first);
        assertEquals(dns.size(), 2);
    }

    @Test
    public void anInvalidDnIsRefusedEveryTimeAndNotKept() {
        BindDns dns = new BindDns(schema, 100);
        for (int i = 0; i < 2; i++) {
            expectThrows(LocalizedIllegalArgumentException.class, () -> dns.parse("not a DN"));
        }
        assertEquals(dns.size(), 0);
    }

    @Test
    public void aLongNameIsParsedButNotKept() {
        BindDns dns = new BindDns(schema, 100);
        String name = "cn=" + "x".repeat(BindDns.LONGEST_KEPT) + ",dc=example,dc=com";
        assertEquals(dns.parse(name), DN.valueOf(name, schema));
        assertEquals(dns.size(), 0);
    }

    @Test
    public void sizeZeroKeepsNothing() {
        BindDns dns = new BindDns(schema, 0);
        assertEquals(dns.parse("uid=a,dc=example,dc=com"), DN.valueOf("uid=a,dc=example,dc=com", schema));
        assertEquals(dns.size(), 0);
    }

    @Test
    public void manyNamesKeepNoMoreThanTheSize() {
        BindDns dns = new BindDns(schema, 50);
        for (int i = 0; i < 5_000; i++) {
            dns.parse("uid=user." + i + ",ou=People,dc=example,dc=com");
        }
        assertTrue(dns.size() <= 50, "kept " + dns.size());
    }

    /**
     * Eight threads parse 400 names (two spellings of 200 DNs) through a cache of 64, so entries are added and
     * evicted all the time, and each answer is checked against a parse of its own: a DN handed to the wrong name,
     * or seen half-built by another thread, shows as a wrong string, normalized form or hash code.
     */
    @Test(timeOut = 60_000)
    public void threadsRacingAddsAndEvictionsAlwaysGetTheirOwnDn() throws Exception {
        BindDns dns = new BindDns(schema, 64);
        List<String> names = new ArrayList<>();
        List<DN> expected = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            for (String name : List.of("uid=user." + i + ",ou=People,dc=example,dc=com",
                    "UID=User." + i + ", OU=people, DC=example, DC=com")) {
                names.add(name);
                expected.add(DN.valueOf(name, schema));
            }
        }
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        ConcurrentLinkedQueue<String> wrong = new ConcurrentLinkedQueue<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int n = 0; n < 50_000 && wrong.isEmpty(); n++) {
                        int i = random.nextInt(names.size());
                        DN got = dns.parse(names.get(i));
                        DN want = expected.get(i);
                        if (!got.toString().equals(want.toString()) || got.hashCode() != want.hashCode()
                                || !got.toNormalizedByteString().equals(want.toNormalizedByteString())) {
                            wrong.add(names.get(i) + " -> " + got);
                        }
                    }
                } catch (Exception e) {
                    wrong.add(e.toString());
                }
            });
            all.add(thread);
            thread.start();
        }
        for (Thread thread : all) {
            thread.join();
        }
        assertTrue(wrong.isEmpty(), wrong.toString());
        assertTrue(dns.size() <= 64, "kept " + dns.size());
    }
}
