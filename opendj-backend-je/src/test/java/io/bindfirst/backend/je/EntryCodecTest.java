package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

public class EntryCodecTest {
    private final EntryCodec codec = new EntryCodec(TestSupport.SCHEMA);

    private Entry roundTrip(Entry entry) throws BackendException {
        byte[] bytes = codec.encode(entry);
        assertEquals(bytes[0], EntryCodec.VERSION);
        Entry decoded = codec.decode(bytes);
        assertTrue(decoded instanceof LinkedHashMapEntry);
        assertEquals(decoded, entry);
        assertEquals(decoded.getName().toString(), entry.getName().toString(), "DN kept as given");
        List<String> names = new ArrayList<>();
        for (Attribute a : decoded.getAllAttributes()) {
            names.add(a.getAttributeDescriptionAsString());
        }
        List<String> expected = new ArrayList<>();
        for (Attribute a : entry.getAllAttributes()) {
            expected.add(a.getAttributeDescriptionAsString());
        }
        assertEquals(names, expected, "attribute order and spelling kept");
        return decoded;
    }

    @Test
    public void roundTripsAnInetOrgPerson() throws BackendException {
        Entry decoded = roundTrip(TestSupport.person(7, TestSupport.PEOPLE));
        // Decoding is schema-aware: mail is the RFC 4524 type of the test schema, not a placeholder.
        Attribute mail = decoded.getAttribute("mail");
        assertFalse(mail.getAttributeDescription().getAttributeType().isPlaceHolder());
        assertEquals(mail.getAttributeDescription().getAttributeType().getOID(), "0.9.2342.19200300.100.1.3");
        assertTrue(mail.contains(ByteString.valueOfUtf8("USER.7@EXAMPLE.COM")), "caseIgnoreIA5Match applies");
    }

    @Test
    public void roundTripsOptionsBinaryValuesAndUnicode() throws BackendException {
        Entry entry = TestSupport.entry("cn=Fran\u00e7ois\\, Jr+sn=M\u00fcller,ou=People,dc=example,dc=com",
                "objectClass", "person", "cn", "Fran\u00e7ois, Jr", "cn;lang-fr", "Fran\u00e7ois",
                "cn;lang-fr;x-other", "F", "sn", "M\u00fcller", "description", "");
        byte[] binary = new byte[300];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) i; // every byte value, including 0x00, 0x80 and 0xff
        }
        entry.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("userCertificate;binary",
                TestSupport.SCHEMA), ByteString.wrap(binary)), null);
        Entry decoded = roundTrip(entry);
        assertEquals(decoded.getAttribute("userCertificate;binary").firstValue().toByteArray(), binary);
        AttributeDescription lang = decoded.getAttribute("cn;lang-fr").getAttributeDescription();
        assertTrue(lang.hasOption("lang-fr"));
        assertEquals(lang.getAttributeType().getOID(), "2.5.4.3");
        assertEquals(decoded.getAttribute("description").firstValueAsString(), "");
    }

    @Test
    public void roundTripsAnEntryWithoutAttributes() throws BackendException {
        Entry decoded = roundTrip(new LinkedHashMapEntry(TestSupport.dn("ou=empty,dc=example,dc=com")));
        assertEquals(decoded.getAttributeCount(), 0);
        Entry root = roundTrip(new LinkedHashMapEntry(TestSupport.dn("")));
        assertTrue(root.getName().isRootDN());
    }

    @Test
    public void roundTripsManyAndLargeValues() throws BackendException {
        Entry entry = TestSupport.entry("cn=group,dc=example,dc=com", "objectClass", "groupOfNames", "cn", "group");
        Attribute members = new LinkedAttribute(AttributeDescription.valueOf("member", TestSupport.SCHEMA));
        for (int i = 0; i < 5_000; i++) {
            members.add("uid=user." + i + ",ou=People,dc=example,dc=com");
        }
        entry.addAttribute(members);
        char[] big = new char[200_000];
        Arrays.fill(big, 'x');
        entry.addAttribute("description", new String(big));
        Entry decoded = roundTrip(entry);
        assertEquals(decoded.getAttribute("member").size(), 5_000);
        assertEquals(decoded.getAttribute("description").firstValue().length(), 200_000);
    }

    @Test
    public void unknownAttributesStillDecode() throws BackendException {
        Entry entry = TestSupport.entry("cn=x,dc=example,dc=com", "x-custom-attr", "v1", "x-custom-attr", "v2");
        Entry decoded = roundTrip(entry);
        assertEquals(decoded.getAttribute("x-custom-attr").size(), 2);
    }

    @Test
    public void unknownVersionIsAClearError() {
        byte[] bytes = codec.encode(TestSupport.person(1, TestSupport.PEOPLE));
        bytes[0] = 9;
        BackendException e = expectThrows(BackendException.class, () -> codec.decode(bytes));
        assertEquals(e.resultCode(), ResultCode.OTHER);
        assertTrue(e.getMessage().contains("format version 9"), e.getMessage());
        assertTrue(e.getMessage().contains("version 1"), e.getMessage());
    }

    @Test
    public void damagedDataIsAClearError() {
        byte[] bytes = codec.encode(TestSupport.person(1, TestSupport.PEOPLE));
        for (int length : new int[] {0, 1, 2, 10, bytes.length - 1}) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            BackendException e = expectThrows(BackendException.class, () -> codec.decode(truncated));
            assertTrue(e.getMessage().startsWith("A stored entry cannot be read"), e.getMessage());
        }
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertNotNull(expectThrows(BackendException.class, () -> codec.decode(longer)));
        byte[] hugeLength = {EntryCodec.VERSION, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};
        assertNotNull(expectThrows(BackendException.class, () -> codec.decode(hugeLength)));
    }

    @Test
    public void storedDescriptionsAreParsedOncePerCodec() throws BackendException {
        EntryCodec fresh = new EntryCodec(TestSupport.SCHEMA);
        Entry first = TestSupport.person(1, TestSupport.PEOPLE);
        for (int i = 1; i <= 50; i++) {
            Entry person = TestSupport.person(i, TestSupport.PEOPLE);
            assertEquals(fresh.decode(fresh.encode(person)), person);
        }
        assertEquals(fresh.cachedDescriptions(), first.getAttributeCount(), "one per distinct description");
        Entry some = fresh.decodeSome(fresh.encode(first), Set.of("objectclass", "uid"), first.getName(),
                DnKeys.keyOfCanonical(first.getName()));
        assertEquals(some.getAttributeCount(), 2);
        assertEquals(some.getAttribute("uid"), first.getAttribute("uid"));
        assertEquals(fresh.cachedDescriptions(), first.getAttributeCount());
    }

    @Test
    public void theDescriptionCacheIsBoundedAndDecodingGoesOnBeyondIt() throws BackendException {
        EntryCodec fresh = new EntryCodec(TestSupport.SCHEMA);
        int distinct = EntryCodec.MAX_CACHED_DESCRIPTIONS + 50;
        Entry many = new LinkedHashMapEntry("cn=many,dc=example,dc=com");
        for (int i = 0; i < distinct; i++) {
            many.addAttribute("x-attr-" + i, "v" + i);
        }
        Entry decoded = fresh.decode(fresh.encode(many));
        assertEquals(decoded, many);
        assertEquals(decoded.getAttribute("x-attr-" + (distinct - 1)).firstValueAsString(), "v" + (distinct - 1));
        assertEquals(fresh.cachedDescriptions(), EntryCodec.MAX_CACHED_DESCRIPTIONS);
    }

    @Test
    public void aDescriptionThatDoesNotParseFailsOnlyWhenItsAttributeIsDecoded() throws BackendException {
        Entry entry = TestSupport.entry("cn=odd,dc=example,dc=com", "cn", "odd", "x-odd", "v",
                "userPassword", "secret");
        byte[] bytes = codec.encode(entry);
        int at = new String(bytes, StandardCharsets.ISO_8859_1).indexOf("x-odd");
        bytes[at + 1] = ' '; // "x odd": not a valid attribute description
        Entry some = codec.decodeSome(bytes, Set.of("userpassword"), entry.getName(),
                DnKeys.keyOfCanonical(entry.getName()));
        assertEquals(some.getAttribute("userPassword").firstValueAsString(), "secret");
        BackendException e = expectThrows(BackendException.class, () -> codec.decode(bytes));
        assertTrue(e.getMessage().contains("does not parse"), e.getMessage());
    }

    @Test
    public void theStoredBytesAreTheFormatsByteForByte() {
        Entry entry = TestSupport.entry("cn=\u00e9,dc=x", "cn", "\u00e9", "cn", "b", "cn;lang-fr", "");
        byte[] expected = {1,
            10, 'c', 'n', '=', (byte) 0xc3, (byte) 0xa9, ',', 'd', 'c', '=', 'x',
            2,
            2, 'c', 'n', 2, 2, (byte) 0xc3, (byte) 0xa9, 1, 'b',
            10, 'c', 'n', ';', 'l', 'a', 'n', 'g', '-', 'f', 'r', 1, 0};
        assertEquals(codec.encode(entry), expected);
    }

    @Test
    public void aLargeEntryBetweenSmallOnesLeavesEachItsOwnBytes() throws BackendException {
        Entry small = TestSupport.person(3, TestSupport.PEOPLE);
        byte[] alone = new EntryCodec(TestSupport.SCHEMA).encode(small);
        Entry large = TestSupport.entry("cn=large,dc=example,dc=com", "objectClass", "person", "cn", "large",
                "sn", "l");
        char[] text = new char[EntryCodec.MAX_KEPT_SCRATCH * 2];
        Arrays.fill(text, 'y');
        large.addAttribute("description", new String(text));
        assertEquals(codec.encode(small), alone);
        byte[] big = codec.encode(large);
        assertEquals(codec.encode(small), alone, "no byte of the large entry is left behind");
        assertEquals(codec.decode(big), large);
        assertEquals(codec.encode(large), big);
    }

    @Test
    public void threadsEncodingAtOnceEachGetTheirOwnEntrysBytes() throws Exception {
        EntryCodec shared = new EntryCodec(TestSupport.SCHEMA);
        EntryCodec reference = new EntryCodec(TestSupport.SCHEMA);
        int threads = 4;
        int perThread = 2_000;
        List<byte[]> expected = new ArrayList<>();
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < threads * 10; i++) {
            Entry e = TestSupport.person(i, TestSupport.PEOPLE);
            if (i % 3 == 0) {
                e.addAttribute("description", "x".repeat(i * 50)); // entries of different lengths
            }
            entries.add(e);
            expected.add(reference.encode(e));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> wrong = new ArrayList<>();
            CountDownLatch start = new CountDownLatch(1);
            for (int t = 0; t < threads; t++) {
                int offset = t;
                wrong.add(pool.submit(() -> {
                    start.await();
                    int bad = 0;
                    for (int i = 0; i < perThread; i++) {
                        int k = (i * 7 + offset) % entries.size();
                        if (!Arrays.equals(shared.encode(entries.get(k)), expected.get(k))) {
                            bad++;
                        }
                    }
                    return bad;
                }));
            }
            start.countDown();
            for (Future<Integer> f : wrong) {
                assertEquals((int) f.get(60, TimeUnit.SECONDS), 0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    public void theEncodingDescriptionCacheIsBounded() throws BackendException {
        EntryCodec fresh = new EntryCodec(TestSupport.SCHEMA);
        Entry many = new LinkedHashMapEntry("cn=many,dc=example,dc=com");
        for (int i = 0; i < EntryCodec.MAX_CACHED_DESCRIPTIONS + 50; i++) {
            many.addAttribute("x-enc-" + i, "v");
        }
        assertEquals(fresh.decode(fresh.encode(many)), many);
        assertEquals(fresh.cachedEncodedDescriptions(), EntryCodec.MAX_CACHED_DESCRIPTIONS);
    }
}
