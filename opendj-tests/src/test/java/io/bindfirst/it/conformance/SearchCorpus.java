package io.bindfirst.it.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import com.unboundid.ldap.sdk.Entry;

/**
 * A generated directory for comparing searches between two servers: organizational units three and four
 * levels deep, inetOrgPersons (some also posixAccounts, some extensibleObjects with a time), groups and
 * devices; attributes missing or multi-valued at random, values in several scripts and case forms. The
 * same seed gives the same entries.
 */
final class SearchCorpus {
    static final String ROOT = "ou=diff,dc=example,dc=com";
    /**
     * A generalized-time attribute both servers know: this server's schema defines it (for cn=monitor); slapd
     * is given the same definition ({@link #SLAPD_SCHEMA}), since no stock schema of both has a user time type.
     */
    static final String TIME = "startTime";
    static final String SLAPD_SCHEMA = "attributetype ( 2.25.305628560300754793145753553485247618117.5.1.1"
            + " NAME 'startTime' EQUALITY generalizedTimeMatch ORDERING generalizedTimeOrderingMatch"
            + " SYNTAX 1.3.6.1.4.1.1466.115.121.1.24 SINGLE-VALUE )";

    private static final String[] GIVEN = {"Alice", "Bob", "Élodie", "Zoë", "José", "İlker", "Øystein", "Mary Ann",
        "Jean-Luc", "Björn", "Ana", "Yūki", "Dmitri", "Chloé"};
    private static final String[] SURNAMES = {"Smith", "Müller", "Ångström", "O'Brien", "García", "Straße",
        "Łukasiewicz", "Nguyễn", "Dupont-Lefèvre", "田中", "Smythe", "Schmidt", "SMITH", "van der Berg", "Иванов"};
    private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "Café", "naïve", "résumé", "ångström",
        "Zebra", "zebra", "東京", "ρω", "x", "data", "Data Centre", "centre"};
    private static final String[] TITLES = {"Engineer", "Senior Engineer", "Manager", "director", "Chef de projet"};
    private static final String[] PLACES = {"Paris", "Zürich", "Tokyo", "New York", "São Paulo", "paris"};

    private final Random random;
    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final List<String> containers = new ArrayList<>();
    private final List<String> users = new ArrayList<>();
    private int next;

    SearchCorpus(long seed) {
        this.random = new Random(seed);
        Entry root = new Entry(ROOT);
        root.addAttribute("objectClass", "top", "organizationalUnit");
        root.addAttribute("ou", "diff");
        root.addAttribute("description", "The differential search corpus");
        add(root);
        for (int r = 0; r < 3; r++) {
            String region = ou(ROOT, r == 1 ? "Région Sud" : "Region " + r);
            for (int t = 0; t < 3; t++) {
                String team = ou(region, t == 2 ? "Équipe " + t : "Team " + t);
                int count = 6 + random.nextInt(6);
                for (int u = 0; u < count; u++) {
                    user(team);
                }
                device(team);
                if (t == 0) {
                    String sub = ou(team, "Sub");
                    for (int u = 0; u < 3; u++) {
                        user(sub);
                    }
                    device(sub);
                }
            }
            group(region);
            group(region);
        }
    }

    /** Every entry, parents before children. */
    List<Entry> entries() {
        return List.copyOf(entries.values());
    }

    /** The organizational units, {@link #ROOT} first. */
    List<String> containers() {
        return containers;
    }

    /** The LDIF slapadd loads: the suffix entry, then the corpus. */
    String ldif() {
        StringBuilder out = new StringBuilder("dn: dc=example,dc=com\nobjectClass: top\nobjectClass: domain\n"
                + "dc: example\n\n");
        for (Entry e : entries.values()) {
            out.append(e.toLDIFString()).append('\n');
        }
        return out.toString();
    }

    /** Every value of {@code attribute} in the corpus (as stored), for filters that hit something. */
    List<String> values(String attribute) {
        Set<String> out = new LinkedHashSet<>();
        for (Entry e : entries.values()) {
            String[] v = e.getAttributeValues(attribute);
            if (v != null) {
                out.addAll(List.of(v));
            }
        }
        return List.copyOf(out);
    }

    private String ou(String parent, String name) {
        String dn = "ou=" + name + "," + parent;
        Entry e = new Entry(dn);
        e.addAttribute("objectClass", "top", "organizationalUnit");
        e.addAttribute("ou", name);
        maybe(e, "description", 0.5, 1, WORDS);
        maybe(e, "l", 0.5, 1, PLACES);
        if (random.nextBoolean()) {
            e.addAttribute("telephoneNumber", phone());
        }
        add(e);
        containers.add(dn);
        return dn;
    }

    private void user(String parent) {
        int n = next++;
        String uid = "u" + n;
        String given = pick(GIVEN);
        String sn = pick(SURNAMES);
        Entry e = new Entry("uid=" + uid + "," + parent);
        e.addAttribute("objectClass", "top", "person", "organizationalPerson", "inetOrgPerson");
        e.addAttribute("uid", uid);
        e.addAttribute("sn", sn);
        Set<String> cns = new LinkedHashSet<>(List.of(given + " " + sn));
        if (random.nextInt(3) == 0) {
            String nick = pick(GIVEN);
            // Lower-casing İ adds a combining dot, a case where slapd departs from RFC 4518 (see EXPECTED)
            cns.add((nick.indexOf('İ') < 0 ? nick.toLowerCase(java.util.Locale.ROOT) : nick) + " " + n);
        }
        e.addAttribute("cn", cns);
        if (random.nextInt(4) != 0) {
            e.addAttribute("givenName", given);
        }
        int mails = random.nextInt(3);
        for (int m = 0; m < mails; m++) {
            e.addAttribute("mail", (m == 0 ? uid : given.replaceAll("[^A-Za-z]", "") + n) + "@Example.com");
        }
        int phones = random.nextInt(3);
        for (int p = 0; p < phones; p++) {
            e.addAttribute("telephoneNumber", phone());
        }
        maybe(e, "description", 0.5, 2, WORDS);
        maybe(e, "title", 0.4, 1, TITLES);
        maybe(e, "l", 0.5, 2, PLACES);
        if (random.nextBoolean()) {
            e.addAttribute("employeeNumber", String.valueOf(random.nextInt(2_000)));
        }
        if (random.nextInt(3) == 0) {
            e.addAttribute("roomNumber", "R" + random.nextInt(50), "s" + random.nextInt(50));
        }
        if (random.nextInt(3) == 0) {
            e.addAttribute("displayName", given + " " + sn.toUpperCase(java.util.Locale.ROOT));
        }
        if (!users.isEmpty() && random.nextInt(3) == 0) {
            e.addAttribute("manager", users.get(random.nextInt(users.size())));
        }
        if (random.nextBoolean()) {
            e.addAttribute("objectClass", "posixAccount");
            e.addAttribute("uidNumber", String.valueOf(random.nextInt(3) == 0 ? 500 + random.nextInt(600)
                    : 1000 + random.nextInt(100_000)));
            e.addAttribute("gidNumber", String.valueOf(100 + random.nextInt(5)));
            e.addAttribute("homeDirectory", "/home/" + uid);
        }
        if (random.nextBoolean()) {
            e.addAttribute("objectClass", "extensibleObject");
            e.addAttribute(TIME, time());
        }
        add(e);
        users.add(e.getDN());
    }

    private void group(String parent) {
        String name = "group " + next++;
        Entry e = new Entry("cn=" + name + "," + parent);
        e.addAttribute("objectClass", "top", "groupOfNames");
        e.addAttribute("cn", name);
        Set<String> members = new LinkedHashSet<>();
        int count = 1 + random.nextInt(5);
        for (int m = 0; m < count; m++) {
            members.add(users.get(random.nextInt(users.size())));
        }
        e.addAttribute("member", members);
        maybe(e, "description", 0.7, 1, WORDS);
        if (random.nextBoolean()) {
            e.addAttribute("businessCategory", pick(WORDS));
        }
        add(e);
    }

    private void device(String parent) {
        String name = "dev-" + next++;
        Entry e = new Entry("cn=" + name + "," + parent);
        e.addAttribute("objectClass", "top", "device");
        e.addAttribute("cn", name);
        if (random.nextInt(4) != 0) {
            e.addAttribute("serialNumber", "SN-" + (10_000 + random.nextInt(90_000)));
        }
        maybe(e, "l", 0.5, 1, PLACES);
        maybe(e, "description", 0.5, 1, WORDS);
        if (random.nextBoolean()) {
            e.addAttribute("owner", users.get(random.nextInt(users.size())));
        }
        add(e);
    }

    /** A telephone number in one of the spellings telephoneNumberMatch treats as the same. */
    private String phone() {
        int n = random.nextInt(100);
        return switch (random.nextInt(3)) {
            case 0 -> "+1 555 01" + String.format("%02d", n);
            case 1 -> "+1-555-01" + String.format("%02d", n);
            default -> "+155501" + String.format("%02d", n);
        };
    }

    /** A generalized time between 2019 and 2026, in UTC or with an offset, with or without fractions. */
    private String time() {
        java.time.OffsetDateTime t = java.time.OffsetDateTime.of(2019, 1, 1, 0, 0, 0, 0, java.time.ZoneOffset.UTC)
                .plusSeconds(random.nextLong(8L * 365 * 86_400));
        return switch (random.nextInt(4)) {
            case 0 -> String.format("%tY%<tm%<td%<tH%<tM%<tSZ", t);
            case 1 -> String.format("%tY%<tm%<td%<tH%<tM%<tS.%dZ", t, random.nextInt(10));
            case 2 -> String.format("%tY%<tm%<td%<tH%<tMZ", t);
            default -> {
                java.time.OffsetDateTime local = t.withOffsetSameInstant(java.time.ZoneOffset.ofHours(2));
                yield String.format("%tY%<tm%<td%<tH%<tM%<tS+0200", local);
            }
        };
    }

    private void maybe(Entry e, String attribute, double chance, int most, String[] pool) {
        if (random.nextDouble() < chance) {
            Set<String> values = new LinkedHashSet<>();
            int count = 1 + random.nextInt(most);
            for (int i = 0; i < count; i++) {
                values.add(pick(pool));
            }
            // Two values equal under caseIgnoreMatch ("Zebra", "zebra") would be refused: keep one.
            Map<String, String> byFolded = new LinkedHashMap<>();
            for (String v : values) {
                byFolded.putIfAbsent(v.toLowerCase(java.util.Locale.ROOT), v);
            }
            e.addAttribute(attribute, byFolded.values());
        }
    }

    private String pick(String[] pool) {
        return pool[random.nextInt(pool.length)];
    }

    private void add(Entry e) {
        entries.put(e.getDN(), e);
    }
}
