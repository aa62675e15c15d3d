package io.bindfirst.backend.je;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;

/** Shared test fixtures: a schema with inetOrgPerson, entry builders and temp directories. */
final class TestSupport {
    /** The core schema plus mail (RFC 4524), displayName and inetOrgPerson (RFC 2798, trimmed). */
    static final Schema SCHEMA = new SchemaBuilder(Schema.getCoreSchema())
            .addAttributeType("( 0.9.2342.19200300.100.1.3 NAME ( 'mail' 'rfc822Mailbox' ) "
                    + "EQUALITY caseIgnoreIA5Match SUBSTR caseIgnoreIA5SubstringsMatch "
                    + "SYNTAX 1.3.6.1.4.1.1466.115.121.1.26{256} )", true)
            .addAttributeType("( 2.16.840.1.113730.3.1.241 NAME 'displayName' EQUALITY caseIgnoreMatch "
                    + "SUBSTR caseIgnoreSubstringsMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )", true)
            .addObjectClass("( 2.16.840.1.113730.3.2.2 NAME 'inetOrgPerson' SUP organizationalPerson "
                    + "STRUCTURAL MAY ( displayName $ givenName $ initials $ mail $ o $ uid ) )", true)
            .toSchema();

    static final Set<String> SERVER_INDEXES = Set.of("objectclass", "uid", "mail", "cn", "sn", "givenname");
    static final String SUFFIX = "dc=example,dc=com";
    static final String PEOPLE = "ou=People," + SUFFIX;

    private TestSupport() {
    }

    static DN dn(String dn) {
        return DN.valueOf(dn, SCHEMA.asNonStrictSchema());
    }

    static BackendConfig config(Path dir, Set<String> indexes) {
        return new BackendConfig("userRoot", "je", List.of(dn(SUFFIX)), dir, indexes, 0,
                BackendConfig.DEFAULT_BIND_CACHE_ENTRIES);
    }

    static JeBackend open(Path dir) throws BackendException {
        return JeBackend.open(config(dir, SERVER_INDEXES), SCHEMA);
    }

    /** An entry from alternating attribute names and values. */
    static Entry entry(String dn, String... attributeValuePairs) {
        Entry entry = new LinkedHashMapEntry(dn(dn));
        for (int i = 0; i < attributeValuePairs.length; i += 2) {
            AttributeDescription ad = AttributeDescription.valueOf(attributeValuePairs[i], SCHEMA.asNonStrictSchema());
            entry.addAttribute(new LinkedAttribute(ad, attributeValuePairs[i + 1]), null);
        }
        return entry;
    }

    static Entry domain(String dn) {
        return entry(dn, "objectClass", "top", "objectClass", "domain",
                "dc", dn(dn).rdn().getFirstAVA().getAttributeValue().toString());
    }

    static Entry ou(String dn) {
        return entry(dn, "objectClass", "top", "objectClass", "organizationalUnit",
                "ou", dn(dn).rdn().getFirstAVA().getAttributeValue().toString());
    }

    static Entry person(int i, String parent) {
        return entry("uid=user." + i + "," + parent,
                "objectClass", "top", "objectClass", "person", "objectClass", "organizationalPerson",
                "objectClass", "inetOrgPerson", "uid", "user." + i, "cn", "User " + i, "sn", "Number" + i,
                "givenName", "User", "mail", "user." + i + "@example.com", "description", "Test user " + i);
    }

    /** A copy of {@code entry} (never changed itself) with {@code attribute} holding just {@code values}. */
    static Entry with(Entry entry, String attribute, String... values) {
        Entry copy = LinkedHashMapEntry.deepCopyOfEntry(entry); // the copy constructor shares attributes
        AttributeDescription ad = AttributeDescription.valueOf(attribute, SCHEMA.asNonStrictSchema());
        copy.replaceAttribute(new LinkedAttribute(ad, (Object[]) values));
        return copy;
    }

    /** A copy of {@code entry} named {@code newDn}, its RDN attribute holding the new RDN value. */
    static Entry renamed(Entry entry, String newDn) {
        DN name = dn(newDn);
        String rdnType = name.rdn().getFirstAVA().getAttributeType().getNameOrOID();
        Entry copy = with(entry, rdnType, name.rdn().getFirstAVA().getAttributeValue().toString());
        copy.setName(name);
        return copy;
    }

    /**
     * A branch for subtree tests, parents first: {@code ou=<name>,<parent>}, {@code teams} units below it
     * and {@code perTeam} people in each (uid {@code <name>.<team>.<i>}, description "0").
     */
    static List<Entry> branch(String name, String parent, int teams, int perTeam) {
        String base = "ou=" + name + "," + parent;
        List<Entry> entries = new ArrayList<>();
        entries.add(ou(base));
        for (int t = 0; t < teams; t++) {
            String team = "ou=Team" + t + "," + base;
            entries.add(ou(team));
            for (int i = 0; i < perTeam; i++) {
                String uid = name + "." + t + "." + i;
                entries.add(entry("uid=" + uid + "," + team, "objectClass", "top", "objectClass", "person",
                        "objectClass", "organizationalPerson", "objectClass", "inetOrgPerson", "uid", uid,
                        "cn", "Member " + uid, "sn", "Member", "mail", uid + "@example.com", "description", "0"));
            }
        }
        return entries;
    }

    /** The suffix, ou=People and ou=Groups. */
    static void addTree(Backend backend) throws BackendException {
        backend.addEntry(domain(SUFFIX));
        backend.addEntry(ou(PEOPLE));
        backend.addEntry(ou("ou=Groups," + SUFFIX));
    }

    /** The DNs (normalized strings, sorted) the backend passes to the visitor. */
    static List<String> search(Backend backend, String base, SearchScope scope, String filter)
            throws BackendException {
        List<String> dns = new ArrayList<>();
        backend.search(dn(base), scope, Filter.valueOf(filter), entry -> dns.add(norm(entry.getName())));
        dns.sort(null);
        return dns;
    }

    static String norm(DN dn) {
        return dn.toNormalizedUrlSafeString();
    }

    static List<String> norms(String... dns) {
        List<String> result = new ArrayList<>();
        for (String dn : dns) {
            result.add(norm(dn(dn)));
        }
        result.sort(null);
        return result;
    }

    static Path tempDir() {
        try {
            return Files.createTempDirectory("je-backend-test");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
