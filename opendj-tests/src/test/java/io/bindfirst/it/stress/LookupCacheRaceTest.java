package io.bindfirst.it.stress;

import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchResultEntry;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig.Listener.Inline;

/**
 * Hunts stale answers from the lookup cache, which answers a login's search ({@code (mail=x)}, or
 * {@code (&(objectClass=inetOrgPerson)(mail=x))}) from memory, on the selector thread. Readers keep searching for
 * every racer's current value, filling the cache and racing its admissions against the writes; a writer changes
 * the racers one way after another (a new mail value, another description, a rename, a delete and an add back,
 * an ACI that hides the entry from anonymous readers and its removal) and, the moment each write is
 * acknowledged, searches as a login would and counts every answer that is not the new truth. Bounded in time
 * ({@code -Drace.seconds}, default 6).
 */
public class LookupCacheRaceTest {
    private static final int RACERS = 4;
    private static final int READERS = 3;
    private static final int MIN_CHECKS = 200;
    private static final String HIDE =
            "(targetattr=\"*\")(version 3.0; acl \"hide\"; deny (all) userdn=\"ldap:///anyone\";)";

    @Test(timeOut = 120_000)
    public void noStaleAnswerOnceAWriteIsAcknowledged() throws Exception {
        long seconds = Long.getLong("race.seconds", 6);
        try (TestServer server = TestServer.start(1, c -> c.withListener(c.listener()
                     .withInlineOperations(Inline.ALWAYS)));
             LDAPConnection writer = server.bindAs(TestServer.ROOT_DN, TestServer.ROOT_PASSWORD);
             LDAPConnection checker = server.connect()) {
            AtomicReferenceArray<String> mail = new AtomicReferenceArray<>(RACERS);
            String[] dn = new String[RACERS];
            for (int k = 0; k < RACERS; k++) {
                dn[k] = "cn=racer." + k + "," + TestServer.PEOPLE;
                mail.set(k, "racer." + k + ".0@example.com");
                add(writer, dn[k], mail.get(k), "v0");
            }
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(READERS);
            List<Future<Long>> readers = new ArrayList<>();
            for (int r = 0; r < READERS; r++) {
                readers.add(pool.submit(() -> {
                    long n = 0;
                    try (LDAPConnection c = server.connect()) {
                        while (!stop.get()) {
                            for (int k = 0; k < RACERS; k++) {
                                c.search(TestServer.PEOPLE, SearchScope.SUB, "(mail=" + mail.get(k) + ")", "1.1");
                                n++;
                            }
                        }
                    }
                    return n;
                }));
            }
            long checks = 0;
            List<String> stale = new ArrayList<>();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            for (int i = 1; System.nanoTime() < end || checks < MIN_CHECKS; i++) {
                int k = i % RACERS;
                String was = mail.get(k);
                switch (i / RACERS % 5) {
                    case 0 -> { // a new value: the old one finds nothing, the new one the entry
                        String now = "racer." + k + "." + i + "@example.com";
                        writer.modify(dn[k], new Modification(ModificationType.REPLACE, "mail", now));
                        mail.set(k, now);
                        checks += expect(checker, was, null, null, stale, "after mail " + was + " -> " + now);
                        checks += expect(checker, now, dn[k], null, stale, "after mail " + was + " -> " + now);
                    }
                    case 1 -> { // another attribute: the entry as it is now
                        writer.modify(dn[k], new Modification(ModificationType.REPLACE, "description", "v" + i));
                        checks += expect(checker, was, dn[k], "v" + i, stale, "after description v" + i);
                    }
                    case 2 -> { // a rename: found under its new name
                        String renamed = "cn=racer." + k + "." + i + "," + TestServer.PEOPLE;
                        writer.modifyDN(dn[k], "cn=racer." + k + "." + i, true);
                        dn[k] = renamed;
                        checks += expect(checker, was, renamed, null, stale, "after the rename to " + renamed);
                    }
                    case 3 -> { // a delete, then the entry back
                        writer.delete(dn[k]);
                        checks += expect(checker, was, null, null, stale, "after the delete of " + dn[k]);
                        add(writer, dn[k], was, "v" + i);
                        checks += expect(checker, was, dn[k], "v" + i, stale, "after the add of " + dn[k]);
                    }
                    default -> { // hidden from anonymous readers by an ACI, then shown again
                        writer.modify(dn[k], new Modification(ModificationType.ADD, "aci", HIDE));
                        checks += expect(checker, was, null, null, stale, "after hiding " + dn[k]);
                        writer.modify(dn[k], new Modification(ModificationType.DELETE, "aci", HIDE));
                        checks += expect(checker, was, dn[k], null, stale, "after showing " + dn[k]);
                    }
                }
            }
            stop.set(true);
            long reads = 0;
            for (Future<Long> f : readers) {
                reads += f.get(30, TimeUnit.SECONDS);
            }
            pool.shutdown();
            SearchResultEntry caches = writer.getEntry("cn=Credential Caches,cn=monitor", "+", "*");
            long hits = caches.getAttributeValueAsLong("ds-mon-lookup-cache-hits");
            assertTrue(stale.isEmpty(), stale.size() + " stale answers of " + checks + " checks, e.g. "
                    + stale.subList(0, Math.min(5, stale.size())));
            assertTrue(checks >= MIN_CHECKS, checks + " checks");
            assertTrue(hits > reads / 4, "the cache answered " + hits + " of " + (reads + checks)
                    + " searches: the race needs it in play");
        }
    }

    private static void add(LDAPConnection writer, String dn, String mail, String description) throws Exception {
        String cn = dn.substring(3, dn.indexOf(','));
        writer.add(dn, new Attribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson"),
                new Attribute("cn", cn), new Attribute("sn", "Racer"), new Attribute("mail", mail),
                new Attribute("description", description));
    }

    /**
     * Searches for {@code mail} as a login does (the bare equality and the AND form, alternately by call) and
     * records what is not {@code dn} with {@code description} (any, if null), or not empty for a null dn.
     */
    private static int expect(LDAPConnection c, String mail, String dn, String description, List<String> stale,
                              String when) throws Exception {
        int n = 0;
        for (String filter : List.of("(mail=" + mail + ")", "(&(objectClass=inetOrgPerson)(mail=" + mail + "))")) {
            List<SearchResultEntry> found = c.search(TestServer.PEOPLE, SearchScope.SUB, filter, "description")
                    .getSearchEntries();
            n++;
            if (dn == null ? !found.isEmpty()
                    : found.size() != 1 || !found.get(0).getParsedDN().equals(new com.unboundid.ldap.sdk.DN(dn))
                    || (description != null && !description.equals(found.get(0).getAttributeValue("description")))) {
                stale.add(when + ": " + filter + " found " + found);
            }
        }
        return n;
    }
}
