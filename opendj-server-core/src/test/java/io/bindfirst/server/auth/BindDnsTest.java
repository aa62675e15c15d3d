package io.bindfirst.server.auth;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
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
    public void aDnIsKeptOnlyOnceKeepIsCalledAndIsTheSameAsAFreshParse() {
        BindDns dns = new BindDns(schema, 100);
        String name = "uid=User.1, ou=People,dc=example,dc=com";
        DN first = dns.parse(name);
        assertNull(dns.kept(name), "parsing alone keeps nothing: a bind that fails must not take room");
        dns.keep(name, first);
        assertSame(dns.kept(name), first);
        DN fresh = DN.valueOf(name, schema);
        assertEquals(first, fresh);
        assertEquals(first.toString(), fresh.toString());
        assertEquals(first.toNormalizedByteString(), fresh.toNormalizedByteString());
        // Another spelling of the same DN is its own key, and equal by the schema's rules.
        String other = "UID=user.1,OU=people,DC=Example,DC=com";
        dns.keep(other, dns.parse(other));
        assertEquals(dns.kept(other), first);
        assertEquals(dns.size(), 2);
    }

    @Test
    public void anInvalidDnIsRefusedEveryTime() {
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
        DN dn = dns.parse(name);
        assertEquals(dn, DN.valueOf(name, schema));
        dns.keep(name, dn);
        assertNull(dns.kept(name));
        assertEquals(dns.size(), 0);
    }

    @Test
    public void sizeZeroKeepsNothing() {
        BindDns dns = new BindDns(schema, 0);
        DN dn = dns.parse("uid=a,dc=example,dc=com");
        assertEquals(dn, DN.valueOf("uid=a,dc=example,dc=com", schema));
        dns.keep("uid=a,dc=example,dc=com", dn);
        assertNull(dns.kept("uid=a,dc=example,dc=com"));
        assertEquals(dns.size(), 0);
    }

    @Test
    public void manyNamesKeepNoMoreThanTheSize() {
        BindDns dns = new BindDns(schema, 50);
        for (int i = 0; i < 5_000; i++) {
            String name = "uid=user." + i + ",ou=People,dc=example,dc=com";
            dns.keep(name, dns.parse(name));
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
                        DN got = dns.kept(names.get(i));
                        if (got == null) {
                            got = dns.parse(names.get(i));
                            dns.keep(names.get(i), got); // as a successful bind does, racing the others' reads
                        }
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
