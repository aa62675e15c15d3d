package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotEquals;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

import io.bindfirst.server.backend.BackendException;

public class DnKeysTest {
    private final DnKeys keys = new DnKeys(TestSupport.SCHEMA);

    /** Parents are listed (and therefore exist) before children, as in a real backend. */
    static final String[] TREE = {
        "dc=com",
        "dc=example,dc=com",
        "dc=example2,dc=com",
        "dc=exampl,dc=com",
        "dc=example-,dc=com",
        "ou=People,dc=example,dc=com",
        "ou=Peoplex,dc=example,dc=com",
        "ou=Peopl,dc=example,dc=com",
        "ou=People\\,x,dc=example,dc=com",
        "ou=People\\2Cy,dc=example,dc=com",
        "ou=People+cn=x,dc=example,dc=com",
        "cn=x+ou=People2,dc=example,dc=com",
        "uid=a,ou=People,dc=example,dc=com",
        "uid=a\\,b,ou=People,dc=example,dc=com",
        "uid=a+sn=b,ou=People,dc=example,dc=com",
        "uid=ab,ou=People,dc=example,dc=com",
        "uid=a b,ou=People,dc=example,dc=com",
        "uid=a\\5C,ou=People,dc=example,dc=com",
        "cn=\u00e9t\u00e9,ou=People,dc=example,dc=com",
        "cn=child,uid=a,ou=People,dc=example,dc=com",
        "cn=child,uid=a\\,b,ou=People,dc=example,dc=com",
        "cn=child,uid=a+sn=b,ou=People,dc=example,dc=com",
        "cn=deep,cn=child,uid=a,ou=People,dc=example,dc=com",
        "uid=x,ou=Peoplex,dc=example,dc=com",
        "uid=x,ou=People\\,x,dc=example,dc=com",
        "uid=x,dc=example2,dc=com",
        // multi-valued RDNs whose first AVA (AVAs sort by type) equals a sibling's whole RDN
        "cn=x,dc=example,dc=com",
        "sn=b,ou=People,dc=example,dc=com",
        "cn=c,sn=b,ou=People,dc=example,dc=com",
        "cn=c,uid=a+sn=b,ou=People,dc=example,dc=com",
        // octet-string values holding the separator bytes 0x00 and 0x01 and the escape byte 0x02
        "x-bin=#040161,dc=example,dc=com",
        "x-bin=#0403610062,dc=example,dc=com",
        "x-bin=#0403610162,dc=example,dc=com",
        "x-bin=#0403610262,dc=example,dc=com",
        "x-bin=#04026100,dc=example,dc=com",
        "x-bin=#04026101,dc=example,dc=com",
        "x-bin=#04026102,dc=example,dc=com",
        "cn=c,x-bin=#040161,dc=example,dc=com",
        "cn=c,x-bin=#04026102,dc=example,dc=com",
        "cn=c,x-bin=#04026100,dc=example,dc=com",
    };

    @Test
    public void equalDnsHaveEqualKeys() throws BackendException {
        assertEquals(keys.key(dn("CN=A,OU=people,DC=Example,DC=COM")),
                keys.key(dn("cn=a,ou=People,dc=example,dc=com")));
        assertEquals(keys.key(dn("cn=a+sn=b,dc=com")), keys.key(dn("SN=B+cn=A,dc=com")));
        assertEquals(keys.key(dn("cn=a  b,dc=com")), keys.key(dn("cn=A B,dc=com")));
        assertNotEquals(keys.key(dn("cn=a\\,b,dc=com")), keys.key(dn("cn=a,cn=b,dc=com")));
        assertNotEquals(keys.key(dn("cn=a+sn=b,dc=com")), keys.key(dn("cn=a,dc=com")));
    }

    @Test
    public void binaryValuesReallyHoldSeparatorBytes() {
        // The SDK keeps the BER bytes of a '#' value of an octet-string attribute as the value itself.
        assertEquals(dn("x-bin=#0403610062,dc=com").rdn().getFirstAVA().getAttributeValue().toByteArray(),
                new byte[] {4, 3, 'a', 0, 'b'});
        assertEquals(dn("x-bin=#04026101,dc=com").rdn().getFirstAVA().getAttributeValue().toByteArray(),
                new byte[] {4, 2, 'a', 1});
    }

    @Test
    public void keyUsesTheBackendSchemaWhateverSchemaTheCallerUsed() throws BackendException {
        // In the core schema mail is unknown, hence case-sensitive; in the backend's schema it is not.
        DN parsedWithCore = DN.valueOf("mail=USER@EXAMPLE.COM,dc=com", Schema.getCoreSchema());
        assertEquals(keys.key(parsedWithCore), keys.key(dn("mail=user@example.com,dc=com")));
    }

    /**
     * For every DN d of the tree, the keys in [key(d), subtreeEnd(key(d))) are exactly the keys of d and of
     * its descendants (as the SDK's own DN comparison says), and they form one run in sorted order.
     */
    @Test
    public void aDnParsedWithTheBackendSchemaIsNotParsedAgain() throws BackendException {
        DN own = dn("uid=a,ou=Own,dc=own-schema-test");
        assertSame(keys.canonical(own), own);
    }

    @Test
    public void aDnWhoseParentsTheSdkTookFromAnotherSchemasParseIsParsedAgain() throws BackendException {
        // SDK 5.0.3: DN.valueOf reuses parent DNs from a per-thread cache without checking their schema, so
        // a DN parsed with the backend schema can carry parent RDNs parsed with another schema.
        DN.valueOf("cn=x,dc=mixed-schema-test", Schema.getCoreSchema());
        DN mixed = dn("uid=b,dc=mixed-schema-test");
        assertNotSame(keys.canonical(mixed), mixed);
        assertEquals(keys.canonical(mixed), mixed);
    }

    @Test
    public void aDnParsedWithAnotherSchemaIsParsedAgainEvenWhenItsTypesAreKnownToBoth() throws BackendException {
        // cn is in both schemas, but as different objects: the backend cannot know their rules agree.
        DN parsedWithCore = DN.valueOf("cn=A,dc=example,dc=com", Schema.getCoreSchema());
        DN canonical = keys.canonical(parsedWithCore);
        assertNotSame(canonical, parsedWithCore);
        assertEquals(canonical, dn("cn=a,dc=example,dc=com"));
    }

    @Test
    public void everySubtreeIsOneContiguousKeyRange() throws BackendException {
        List<DN> dns = tree();
        List<byte[]> sorted = new ArrayList<>();
        for (DN dn : dns) {
            sorted.add(keys.key(dn));
        }
        sorted.sort(DnKeys::compare);
        for (DN base : dns) {
            byte[] baseKey = keys.key(base);
            byte[] end = DnKeys.subtreeEnd(baseKey);
            int first = -1;
            int last = -1;
            for (int i = 0; i < sorted.size(); i++) {
                if (DnKeys.inSubtree(sorted.get(i), baseKey)) {
                    if (first < 0) {
                        first = i;
                    }
                    last = i;
                }
            }
            assertEquals(sorted.get(first), baseKey, base + " must sort first in its subtree");
            for (int i = first; i <= last; i++) {
                assertTrue(DnKeys.inSubtree(sorted.get(i), baseKey), "hole in the range of " + base);
            }
            for (DN other : dns) {
                byte[] key = keys.key(other);
                boolean inRange = DnKeys.compare(key, baseKey) >= 0 && DnKeys.compare(key, end) < 0;
                assertEquals(inRange, other.isSubordinateOrEqualTo(base), other + " in the range of " + base);
                boolean inChildren = DnKeys.compare(key, DnKeys.childrenStart(baseKey)) >= 0
                        && DnKeys.compare(key, end) < 0;
                assertEquals(inChildren, other.isSubordinateOrEqualTo(base) && !other.equals(base),
                        other + " below " + base);
            }
        }
    }

    /** The skip walk used for one-level searches finds exactly the children. */
    @Test
    public void skippingSubtreesYieldsExactlyTheChildren() throws BackendException {
        List<DN> dns = tree();
        List<byte[]> sorted = new ArrayList<>();
        for (DN dn : dns) {
            sorted.add(keys.key(dn));
        }
        sorted.sort(DnKeys::compare);
        for (DN base : dns) {
            byte[] baseKey = keys.key(base);
            byte[] end = DnKeys.subtreeEnd(baseKey);
            Set<String> found = new LinkedHashSet<>();
            byte[] from = DnKeys.childrenStart(baseKey);
            while (true) {
                byte[] next = ceiling(sorted, from);
                if (next == null || DnKeys.compare(next, end) >= 0) {
                    break;
                }
                found.add(hex(next));
                from = DnKeys.subtreeEnd(next);
            }
            Set<String> expected = new LinkedHashSet<>();
            for (DN other : dns) {
                if (other.isChildOf(base)) {
                    expected.add(hex(keys.key(other)));
                }
            }
            assertEquals(found, expected, "children of " + base);
        }
    }

    @Test
    public void rangeHelpers() {
        byte[] key = {0, 'a'};
        assertEquals(DnKeys.childrenStart(key), new byte[] {0, 'a', 0});
        assertEquals(DnKeys.subtreeEnd(key), new byte[] {0, 'a', 1});
        assertTrue(DnKeys.inSubtree(new byte[] {0, 'a', 0, 'b'}, key));
        assertFalse(DnKeys.inSubtree(new byte[] {0, 'a', 1, 'b'}, key));
        assertFalse(DnKeys.inSubtree(new byte[] {0, 'a', 'b'}, key));
        assertTrue(DnKeys.compare(new byte[] {(byte) 0x80}, new byte[] {0x7f}) > 0, "unsigned like JE");
    }

    private List<DN> tree() {
        List<DN> dns = new ArrayList<>();
        for (String dn : TREE) {
            dns.add(dn(dn));
        }
        return dns;
    }

    private static byte[] ceiling(List<byte[]> sorted, byte[] from) {
        for (byte[] key : sorted) {
            if (DnKeys.compare(key, from) >= 0) {
                return key;
            }
        }
        return null;
    }

    private static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            sb.append(String.format("%02x", b));
        }
        return sb.toString();
    }

    private static DN dn(String dn) {
        return TestSupport.dn(dn);
    }
}
