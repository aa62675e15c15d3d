package io.bindfirst.it.stress;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import com.unboundid.asn1.ASN1OctetString;
import com.unboundid.ldap.protocol.AbandonRequestProtocolOp;
import com.unboundid.ldap.protocol.AddRequestProtocolOp;
import com.unboundid.ldap.protocol.BindRequestProtocolOp;
import com.unboundid.ldap.protocol.CompareRequestProtocolOp;
import com.unboundid.ldap.protocol.DeleteRequestProtocolOp;
import com.unboundid.ldap.protocol.ExtendedRequestProtocolOp;
import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.ModifyDNRequestProtocolOp;
import com.unboundid.ldap.protocol.ModifyRequestProtocolOp;
import com.unboundid.ldap.protocol.ProtocolOp;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.Attribute;
import com.unboundid.ldap.sdk.Control;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.Modification;
import com.unboundid.ldap.sdk.ModificationType;
import com.unboundid.ldap.sdk.SearchScope;

/**
 * LDAP messages for a fuzzer: well-formed requests of every kind (with and without controls) and what a hostile or
 * broken client makes of them: flipped bits, truncation, length fields that lie (shorter, longer, indefinite,
 * huge), wrong tags, message IDs out of range, filters nested thousands deep or with huge sets, thousands of
 * attributes or values, controls whose values are garbage, and plain noise. Deterministic for a given
 * {@link Random}, so a failing round can be replayed from its seed.
 */
public final class LdapMutator {
    private static final String PEOPLE = "ou=People,dc=example,dc=com";
    private final Random random;

    LdapMutator(Random random) {
        this.random = random;
    }

    /** One message for the wire: a valid one, one mutated, or one built hostile from the start. */
    byte[] next() throws LDAPException {
        int kind = random.nextInt(20);
        if (kind < 3) {
            return valid();
        }
        switch (kind) {
            case 3: case 4: case 5:
                return flipBits(valid());
            case 6: case 7:
                return truncate(valid());
            case 8: case 9: case 10:
                return lieAboutALength(valid());
            case 11:
                return wrongTag(valid());
            case 12:
                return messageIdOutOfRange();
            case 13:
                // Deep enough to overflow a thread's stack if anything walks it recursively; the deepest come
                // near the listener's 5 MiB request limit.
                return deeplyNestedFilter(random.nextInt(4) == 0 ? 200_000 + random.nextInt(600_000)
                        : 1_000 + random.nextInt(20_000));
            case 14:
                return hugeAndFilter(10_000 + random.nextInt(100_000));
            case 15:
                return addWithManyAttributes(1_000 + random.nextInt(10_000));
            case 16:
                return controlWithGarbageValue();
            case 17:
                return noise();
            default:
                return lieAboutALength(flipBits(valid()));
        }
    }

    /** A well-formed request of a random kind, a third of them with controls. */
    byte[] valid() throws LDAPException {
        int id = 1 + random.nextInt(1000);
        String user = "uid=user." + random.nextInt(100) + "," + PEOPLE;
        ProtocolOp op;
        switch (random.nextInt(11)) {
            case 0:
                op = new BindRequestProtocolOp(user, random.nextBoolean() ? "password" : "wrong");
                break;
            case 1:
                op = new SearchRequestProtocolOp(PEOPLE, SearchScope.SUB, DereferencePolicy.NEVER, 10, 5, false,
                        Filter.create("(&(objectClass=person)(|(uid=user.1*)(cn=*a*))(!(sn=x)))"),
                        List.of("cn", "+", "*"));
                break;
            case 2:
                op = new AddRequestProtocolOp("uid=fuzz" + id + "," + PEOPLE, List.of(
                        new Attribute("objectClass", "top", "person"), new Attribute("cn", "f"),
                        new Attribute("sn", "f")));
                break;
            case 3:
                op = new ModifyRequestProtocolOp(user, List.of(new Modification(ModificationType.REPLACE,
                        "description", "fuzzed " + id)));
                break;
            case 4:
                op = new DeleteRequestProtocolOp("uid=fuzz" + id + "," + PEOPLE);
                break;
            case 5:
                op = new ModifyDNRequestProtocolOp("uid=fuzz" + id + "," + PEOPLE, "uid=fuzzed" + id, true, null);
                break;
            case 6:
                op = new CompareRequestProtocolOp(user, "sn", new ASN1OctetString("1"));
                break;
            case 7:
                op = new ExtendedRequestProtocolOp("1.3.6.1.4.1.4203.1.11.3", null); // Who am I?
                break;
            case 8:
                op = new ExtendedRequestProtocolOp("1.3.6.1.4.1.4203.1.11.1", // Password Modify, value garbled
                        new ASN1OctetString(bytes(random.nextInt(40))));
                break;
            case 9:
                op = new AbandonRequestProtocolOp(random.nextInt(2000));
                break;
            default:
                op = new ExtendedRequestProtocolOp("1.3.6.1.4.1.1466.20037", null); // StartTLS, never finished
                break;
        }
        List<Control> controls = random.nextInt(3) == 0 ? controls() : List.of();
        return new LDAPMessage(id, op, controls).encode().encode();
    }

    private List<Control> controls() {
        String[] oids = {"1.2.840.113556.1.4.319", "1.3.6.1.4.1.42.2.27.8.5.1", "2.16.840.1.113730.3.4.2",
            "1.3.6.1.1.12", "1.2.840.113556.1.4.805", "2.16.840.1.113730.3.4.18", "1.2.3.4.5"};
        List<Control> out = new ArrayList<>();
        for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
            boolean withValue = random.nextBoolean();
            out.add(new Control(oids[random.nextInt(oids.length)], random.nextBoolean(),
                    withValue ? new ASN1OctetString(bytes(random.nextInt(30))) : null));
        }
        return out;
    }

    private byte[] flipBits(byte[] m) {
        byte[] out = m.clone();
        for (int i = 0, n = 1 + random.nextInt(8); i < n; i++) {
            int at = random.nextInt(out.length);
            out[at] ^= (byte) (1 << random.nextInt(8));
        }
        return out;
    }

    private byte[] truncate(byte[] m) {
        return java.util.Arrays.copyOf(m, random.nextInt(m.length));
    }

    /** Rewrites one length field of the TLV tree (found by walking it) to a lie of some kind. */
    private byte[] lieAboutALength(byte[] m) {
        List<int[]> lengths = new ArrayList<>(); // {offset of the length field, its size in bytes}
        walk(m, 0, m.length, lengths, 0);
        if (lengths.isEmpty()) {
            return flipBits(m);
        }
        int[] field = lengths.get(random.nextInt(lengths.size()));
        byte[] lie;
        switch (random.nextInt(5)) {
            case 0:
                lie = new byte[] {(byte) 0x80}; // indefinite: not allowed in LDAP's BER
                break;
            case 1:
                lie = new byte[] {(byte) 0x84, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}; // 2 GiB
                break;
            case 2:
                lie = new byte[] {(byte) 0x88, 1, 0, 0, 0, 0, 0, 0, 0}; // longer than any int
                break;
            case 3:
                lie = new byte[] {0}; // empty
                break;
            default:
                lie = new byte[] {(byte) random.nextInt(0x80)}; // some other short length
                break;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(m.length + 8);
        out.write(m, 0, field[0]);
        out.writeBytes(lie);
        out.write(m, field[0] + field[1], m.length - field[0] - field[1]);
        return out.toByteArray();
    }

    /** Collects the length fields of the BER elements in m[from, to), descending into constructed ones. */
    private static void walk(byte[] m, int from, int to, List<int[]> lengths, int depth) {
        int i = from;
        while (i < to && depth < 20) {
            int tag = m[i] & 0xff;
            if (i + 1 >= to) {
                return;
            }
            int lengthAt = i + 1;
            int first = m[lengthAt] & 0xff;
            int size = 1;
            long length;
            if (first < 0x80) {
                length = first;
            } else {
                int n = first & 0x7f;
                if (n == 0 || n > 4 || lengthAt + n >= to) {
                    return;
                }
                length = 0;
                for (int k = 1; k <= n; k++) {
                    length = (length << 8) | (m[lengthAt + k] & 0xff);
                }
                size = 1 + n;
            }
            int content = lengthAt + size;
            if (content + length > to) {
                return;
            }
            lengths.add(new int[] {lengthAt, size});
            if ((tag & 0x20) != 0) {
                walk(m, content, (int) (content + length), lengths, depth + 1);
            }
            i = (int) (content + length);
        }
    }

    private byte[] wrongTag(byte[] m) {
        byte[] out = m.clone();
        List<int[]> lengths = new ArrayList<>();
        walk(m, 0, m.length, lengths, 0);
        int at = lengths.isEmpty() ? 0 : lengths.get(random.nextInt(lengths.size()))[0] - 1;
        out[at] = (byte) random.nextInt(256);
        return out;
    }

    /** A bind whose message ID is negative, zero, or wider than 32 bits. */
    private byte[] messageIdOutOfRange() {
        byte[][] ids = {{(byte) 0xff}, {0}, {(byte) 0x80, 0, 0, 0}, {0, (byte) 0xff, (byte) 0xff, (byte) 0xff,
            (byte) 0xff}, {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}};
        byte[] bind = new BindRequestProtocolOp("uid=user.1," + PEOPLE, "password").encodeProtocolOp().encode();
        return tlv(0x30, tlv(0x02, ids[random.nextInt(ids.length)]), bind);
    }

    /**
     * A search whose filter is NOT/AND(NOT/AND(...(cn=*)...)) {@code depth} deep, written outside in from the
     * lengths computed inside out (wrapping level by level would copy the message {@code depth} times).
     */
    private byte[] deeplyNestedFilter(int depth) {
        byte[] inner = tlv(0x87, "cn".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        int[] lengths = new int[depth]; // lengths[k]: content length of the level k from the inside (0 = innermost)
        int[] tags = new int[depth];
        int length = inner.length;
        for (int k = 0; k < depth; k++) {
            lengths[k] = length;
            tags[k] = random.nextBoolean() ? 0xa2 : 0xa0;
            length += 1 + lengthBytes(length).length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length);
        for (int k = depth - 1; k >= 0; k--) {
            out.write(tags[k]);
            out.writeBytes(lengthBytes(lengths[k]));
        }
        out.writeBytes(inner);
        return search(out.toByteArray());
    }

    /** A search (message ID 7) whose filter is {@code depth} NOTs around (cn=*): for a regression test. */
    public static byte[] nestedNotSearch(int depth) {
        return new LdapMutator(new Random(0) {
            @Override
            public boolean nextBoolean() {
                return true;
            }
        }).deeplyNestedFilter(depth);
    }

    private static byte[] lengthBytes(int length) {
        if (length < 0x80) {
            return new byte[] {(byte) length};
        }
        return new byte[] {(byte) 0x84, (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8),
            (byte) length};
    }

    /** A search whose filter is an AND of {@code n} presence filters. */
    private byte[] hugeAndFilter(int n) {
        byte[] present = tlv(0x87, "cn".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        ByteArrayOutputStream all = new ByteArrayOutputStream(n * present.length);
        for (int i = 0; i < n; i++) {
            all.writeBytes(present);
        }
        return search(tlv(0xa0, all.toByteArray()));
    }

    private byte[] search(byte[] filter) {
        byte[] op = tlv(0x63, tlv(0x04, PEOPLE.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                tlv(0x0a, new byte[] {2}), tlv(0x0a, new byte[] {0}), tlv(0x02, new byte[] {0}),
                tlv(0x02, new byte[] {0}), tlv(0x01, new byte[] {0}), filter, tlv(0x30));
        return tlv(0x30, tlv(0x02, new byte[] {7}), op);
    }

    private byte[] addWithManyAttributes(int n) {
        List<Attribute> attributes = new ArrayList<>(n);
        attributes.add(new Attribute("objectClass", "top", "extensibleObject"));
        boolean manyValues = random.nextBoolean();
        if (manyValues) {
            String[] values = new String[n];
            for (int i = 0; i < n; i++) {
                values[i] = "v" + i;
            }
            attributes.add(new Attribute("description", values));
        } else {
            for (int i = 0; i < n; i++) {
                attributes.add(new Attribute("x-fuzz-" + i, "v"));
            }
        }
        return new LDAPMessage(9, new AddRequestProtocolOp("cn=many,dc=example,dc=com", attributes))
                .encode().encode();
    }

    private byte[] controlWithGarbageValue() throws LDAPException {
        byte[] m = valid();
        // Re-encode with one critical control of a known OID whose value is noise.
        LDAPMessage parsed = LDAPMessage.readFrom(new com.unboundid.asn1.ASN1StreamReader(
                new java.io.ByteArrayInputStream(m)), true);
        String[] oids = {"1.2.840.113556.1.4.319", "1.3.6.1.1.12", "1.2.840.113556.1.4.473",
            "2.16.840.1.113730.3.4.18", "1.3.6.1.1.13.1"};
        Control bad = new Control(oids[random.nextInt(oids.length)], true, new ASN1OctetString(bytes(1 + random
                .nextInt(64))));
        return new LDAPMessage(parsed.getMessageID(), parsed.getProtocolOp(), List.of(bad)).encode().encode();
    }

    private byte[] noise() {
        return bytes(1 + random.nextInt(512));
    }

    private byte[] bytes(int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    /** A BER element: tag, definite length, the parts' bytes. */
    static byte[] tlv(int tag, byte[]... parts) {
        int length = 0;
        for (byte[] p : parts) {
            length += p.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(length + 6);
        out.write(tag);
        if (length < 0x80) {
            out.write(length);
        } else {
            out.write(0x84);
            out.write(length >>> 24);
            out.write(length >>> 16);
            out.write(length >>> 8);
            out.write(length);
        }
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
