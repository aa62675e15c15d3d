package io.bindfirst.tools;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.schema.SchemaLoader;

/**
 * {@link PlainLdifRecords} gives, for every record it reads, the entry the SDK's LDIF reader gives under the
 * import's settings (the same DN, attributes in the same order with the same descriptions, the same values in
 * the same order), and leaves every other record to that reader.
 */
public class PlainLdifRecordsTest {
    private Schema schema;

    @BeforeClass
    public void loadTheServersSchema() throws Exception {
        schema = SchemaLoader.load(Path.of(System.getProperty("bindfirst.repo.root", "..")).resolve("config")
                .resolve("schema").toAbsolutePath().normalize());
    }

    @Test
    public void plainRecordsGiveTheSdksEntry() throws Exception {
        PlainLdifRecords plain = new PlainLdifRecords(schema);
        List<List<String>> records = List.of(
                List.of("dn: uid=user.1,ou=People,dc=example,dc=com", "objectClass: top", "objectClass: person",
                        "objectClass: organizationalPerson", "objectClass: inetOrgPerson", "uid: user.1",
                        "cn: User One", "sn: One", "mail: user.1@example.com", "userPassword: {SSHA}abc"),
                // the same object classes again (remembered), in another case, and one spread out
                List.of("dn: uid=user.2,ou=People,dc=example,dc=com", "objectClass: top", "objectClass: person",
                        "objectClass: organizationalPerson", "objectClass: inetOrgPerson", "uid: user.2",
                        "cn: User Two", "sn: Two"),
                List.of("dn: uid=user.3,ou=People,dc=example,dc=com", "objectclass: TOP", "objectclass: Person",
                        "uid: user.3", "objectClass: inetOrgPerson", "cn: x", "sn: y",
                        "objectClass: organizationalPerson"),
                // duplicates, exact and under the matching rule, merged as the SDK merges them
                List.of("dn: cn=dup,dc=example,dc=com", "objectClass: person", "objectClass: Person",
                        "objectClass: top", "objectClass: person", "cn: dup", "cn: DUP", "cn: dup", "sn: s"),
                // base64, empty values, runs of spaces, trailing spaces, options, multi-valued RDNs, escapes
                List.of("dn:   cn=Jos\\C3\\A9+sn=P\\2C Q,dc=example,dc=com", "objectClass:top",
                        "cn:: " + b64("José"), "cn;lang-fr: Joseph  ", "sn:    P, Q", "description:",
                        "description::", "description:: " + b64("  leading and trailing  "),
                        "telephoneNumber: +1 555 0100", "telephoneNumber: +1 555 0101"),
                // a syntax the SDK reads with ";binary" added, and an attribute the schema does not name
                List.of("dn: cn=cert,dc=example,dc=com", "objectClass: top", "objectClass: inetOrgPerson",
                        "cn: cert", "sn: c", "userCertificate:: " + b64("not really DER"),
                        "userCertificate;binary:: " + b64("other bytes"), "x-not-in-schema: value"),
                // operational attributes as an export writes them, and a lone dn line
                List.of("dn: ou=Groups,dc=example,dc=com", "objectClass: organizationalUnit", "ou: Groups",
                        "entryUUID: 597ae2f6-16a6-1027-98f4-d28b5365dc14",
                        "createTimestamp: 20261129000000Z"),
                List.of("dn: dc=example,dc=com"));
        for (List<String> lines : records) {
            Entry sdk = sdk(lines);
            Entry mine = plain.entry(lines);
            assertNotNull(mine, "a plain record fell back to the SDK: " + lines);
            assertEquals(describe(mine), describe(sdk), "for " + lines);
            assertEquals(mine, sdk);
        }
    }

    @Test
    public void everyOtherRecordIsLeftToTheSdk() {
        PlainLdifRecords plain = new PlainLdifRecords(schema);
        String dn = "dn: cn=a,dc=example,dc=com";
        List<List<String>> others = List.of(
                List.of(),
                List.of("version: 1", dn, "cn: a"),
                List.of("# a comment", dn, "cn: a"),
                List.of(dn, "# a comment", "cn: a"),
                List.of(dn, "description: folded", "  on two lines"),
                List.of(dn, "description: folded", "\twith a tab"),
                List.of("dn:: " + b64("cn=a,dc=example,dc=com"), "cn: a"),
                List.of("dn:", "objectClass: top"),
                List.of("dn:   ", "objectClass: top"),
                List.of("DN: cn=a,dc=example,dc=com", "cn: a"),
                List.of("dn: not a DN", "cn: a"),
                List.of("dn: cn=a,dc=example,dc=com", "jpegPhoto:< file:///etc/hostname"),
                List.of(dn, "description:: not base64 at all!"),
                List.of(dn, "no colon here"),
                List.of(dn, ": no name"),
                List.of(dn, "-"),
                List.of(dn, "bad name!: a"),
                List.of(dn, ""));
        for (List<String> lines : others) {
            assertNull(plain.entry(lines), "read, not left to the SDK: " + lines);
        }
    }

    /** Entries of random plain records against the SDK's, with object class lists repeating (remembered). */
    @Test
    public void randomPlainRecordsGiveTheSdksEntry() throws Exception {
        PlainLdifRecords plain = new PlainLdifRecords(schema);
        Random random = new Random(20261129);
        for (int i = 0; i < 3_000; i++) {
            List<String> lines = randomRecord(random, i);
            Entry mine = plain.entry(lines);
            assertNotNull(mine, "a plain record fell back to the SDK: " + lines);
            assertEquals(describe(mine), describe(sdk(lines)), "for " + lines);
        }
    }

    /** A remembered object class list is copied: changing one entry's object classes changes no other's. */
    @Test
    public void entriesOfOneObjectClassListShareNothing() throws Exception {
        PlainLdifRecords plain = new PlainLdifRecords(schema);
        List<String> lines = List.of("dn: cn=a,dc=example,dc=com", "objectClass: top", "objectClass: person",
                "cn: a", "sn: a");
        Entry first = plain.entry(lines);
        Attribute classes = first.getAttribute("objectClass");
        assertTrue(classes.add(ByteString.valueOfUtf8("inetOrgPerson")));
        assertTrue(classes.remove(ByteString.valueOfUtf8("top")));
        Entry second = plain.entry(lines);
        assertEquals(describe(second), describe(sdk(lines)));
    }

    @Test
    public void threadsReadingAtOnceGiveTheSdksEntries() throws Exception {
        PlainLdifRecords plain = new PlainLdifRecords(schema);
        List<List<String>> records = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 400; i++) {
            records.add(randomRecord(random, i));
            expected.add(describe(sdk(records.get(i))));
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(threads.submit(() -> {
                    List<String> got = new ArrayList<>();
                    for (List<String> r : records) {
                        got.add(describe(plain.entry(r)));
                    }
                    return got;
                }));
            }
            for (Future<List<String>> f : results) {
                assertEquals(f.get(), expected);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    public void theImportsUuidIsTheSdks() throws Exception {
        ImportChecks checks = new ImportChecks(schema, new PasswordSchemes("SSHA512", false));
        for (String dn : List.of("", "dc=com", "dc=example,dc=com", "uid=user.1,ou=People,dc=example,dc=com",
                "CN=Jos\\C3\\A9 + SN=X,DC=Example,DC=COM", "cn=a\\,b,dc=example,dc=com")) {
            DN name = DN.valueOf(dn, schema);
            assertEquals(checks.uuidOf(name), name.toUUID(), dn);
        }
    }

    private static final String[][] OBJECT_CLASS_LISTS = {
        {"top", "person", "organizationalPerson", "inetOrgPerson"},
        {"top", "person"},
        {"inetOrgPerson", "organizationalPerson", "person", "top"},
        {"top", "Person", "person"},
        {"TOP", "INETORGPERSON", "organizationalperson", "person"},
    };

    private static List<String> randomRecord(Random random, int i) {
        List<String> lines = new ArrayList<>();
        lines.add("dn: uid=u" + i + (random.nextBoolean() ? ",ou=People" : "+cn=c" + i) + ",dc=example,dc=com");
        String[] classes = OBJECT_CLASS_LISTS[random.nextInt(OBJECT_CLASS_LISTS.length)];
        String name = random.nextInt(4) == 0 ? "objectclass" : "objectClass";
        for (String c : classes) {
            lines.add(name + ":" + " ".repeat(random.nextInt(3)) + c);
        }
        String[] others = {"cn", "sn", "mail", "description", "telephoneNumber", "givenName", "cn;lang-de", "CN",
            "x-unknown"};
        int count = random.nextInt(8);
        for (int k = 0; k < count; k++) {
            String attr = others[random.nextInt(others.length)];
            String value = random.nextInt(5) == 0 ? "Value " + random.nextInt(4) : "v" + random.nextInt(1000);
            lines.add(switch (random.nextInt(6)) {
                case 0 -> attr + ":: " + b64(value + " é");
                case 1 -> attr + ":";
                case 2 -> attr + ":   " + value + "  ";
                default -> attr + ": " + value;
            });
            if (random.nextInt(10) == 0) {
                lines.add(name + ": extensibleObject"); // an object class after the others
            }
        }
        lines.add("uid: u" + i);
        return lines;
    }

    private Entry sdk(List<String> lines) throws Exception {
        try (LDIFEntryReader reader = new LDIFEntryReader(lines)) {
            reader.setSchema(schema);
            return reader.readEntry();
        }
    }

    /** Everything an entry says, in order: its DN, each attribute's description as written and its values. */
    private static String describe(Entry e) {
        StringBuilder b = new StringBuilder(e.getName().toString());
        for (Attribute a : e.getAllAttributes()) {
            b.append('\n').append(a.getAttributeDescription()).append(" (").append(a.getClass().getSimpleName())
                    .append(")");
            for (ByteString v : a) {
                b.append(" [").append(v.toHexString()).append(']');
            }
        }
        return b.toString();
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
