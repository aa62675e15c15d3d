package io.bindfirst.server;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.StringJoiner;

import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordStorageScheme;

/**
 * The entries a first start creates: the suffix, {@code ou=People} and N users
 * {@code uid=user.N,ou=People,<suffix>} (inetOrgPerson with cn, sn, givenName, uid, mail and the password
 * {@code password} stored as {@code {SSHA}}), the same shape as the peers' benchmark data; then an application's
 * service account, {@code uid=app,ou=Services,<suffix>} (password {@code password}), which an ACI on
 * {@code ou=People} lets search the users and read all but their passwords; then, when there are
 * users, {@code ou=Groups} with {@link #GROUPS} static groups, so isMemberOf shows something on a fresh instance:
 * {@code cn=Administrators} (user.0 and user.1), {@code cn=Developers} (the first 100 users) and {@code cn=Staff}, a
 * groupOfUniqueNames whose members are those two groups (nested). Generated
 * lazily so that 10,000 users never sit in memory at once. Public for {@code bin/setup}, which loads the same
 * data into a new instance (the suffix entry alone when it asks for no users: the first entry).
 */
public final class SampleData implements Iterator<Entry> {
    public static final String PASSWORD = "password";
    /** The entries after the users: ou=Services and its account. */
    public static final int SERVICE_ENTRIES = 2;
    /** The entries after those (when there are users): ou=Groups and its groups. */
    public static final int GROUP_ENTRIES = 4;
    /** Members of cn=Developers: the first this many users. */
    static final int DEVELOPERS = 100;

    private final DN suffix;
    private final DN people;
    private final DN services;
    private final DN groups;
    private final int users;
    private final Schema schema;
    private final PasswordStorageScheme ssha;
    private final PasswordAttribute passwords;
    private final String mailDomain;
    private final ByteString password = ByteString.valueOfUtf8(PASSWORD);
    private int next = -2;

    public SampleData(DN suffix, int users, Schema schema, PasswordStorageScheme ssha, PasswordAttribute passwords) {
        this.suffix = suffix;
        this.people = suffix.child("ou=People");
        this.services = suffix.child("ou=Services");
        this.groups = suffix.child("ou=Groups");
        this.users = users;
        this.schema = schema;
        this.ssha = ssha;
        this.passwords = passwords;
        this.mailDomain = mailDomain(suffix);
    }

    @Override
    public boolean hasNext() {
        return next < users + SERVICE_ENTRIES + (users > 0 ? GROUP_ENTRIES : 0);
    }

    /** The service account's DN under {@code suffix}. */
    public static DN serviceAccount(DN suffix) {
        return suffix.child("ou=Services").child("uid=app");
    }

    @Override
    public Entry next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        int n = next++;
        if (n == -2) {
            return suffixEntry();
        }
        if (n == -1) {
            Entry e = entry(people, "top", "organizationalUnit");
            add(e, "ou", "People");
            add(e, "aci", "(targetattr!=\"userPassword||authPassword\")(version 3.0; acl \"Applications read people\"; "
                    + "allow (read,search,compare) userdn=\"ldap:///" + serviceAccount(suffix) + "\";)");
            return e;
        }
        if (n < users) {
            return user(n);
        }
        return n - users < SERVICE_ENTRIES ? serviceEntry(n - users) : groupEntry(n - users - SERVICE_ENTRIES);
    }

    private Entry serviceEntry(int i) {
        if (i == 0) {
            Entry e = entry(services, "top", "organizationalUnit");
            add(e, "ou", "Services");
            return e;
        }
        Entry e = entry(serviceAccount(suffix), "top", "account", "simpleSecurityObject");
        add(e, "uid", "app");
        add(e, "description", "An application's service account: searches ou=People");
        e.addAttribute(new LinkedAttribute(passwords.description(), "{" + ssha.name() + "}"
                + ssha.encodeValue(password)));
        return e;
    }

    private Entry groupEntry(int i) {
        DN admins = groups.child("cn=Administrators");
        DN developers = groups.child("cn=Developers");
        switch (i) {
            case 0: {
                Entry e = entry(groups, "top", "organizationalUnit");
                add(e, "ou", "Groups");
                return e;
            }
            case 1: {
                Entry e = entry(admins, "top", "groupOfNames");
                add(e, "cn", "Administrators");
                add(e, "member", (Object[]) users(Math.min(2, users)));
                return e;
            }
            case 2: {
                Entry e = entry(developers, "top", "groupOfNames");
                add(e, "cn", "Developers");
                add(e, "member", (Object[]) users(Math.min(DEVELOPERS, users)));
                return e;
            }
            default: {
                Entry e = entry(groups.child("cn=Staff"), "top", "groupOfUniqueNames");
                add(e, "cn", "Staff");
                add(e, "description", "Nested: its members are the groups Administrators and Developers");
                add(e, "uniqueMember", admins.toString(), developers.toString());
                return e;
            }
        }
    }

    /** The DNs of the first {@code n} users. */
    private String[] users(int n) {
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = people.child(new RDN("uid", "user." + i)).toString();
        }
        return out;
    }

    private Entry suffixEntry() {
        AVA ava = suffix.rdn().getFirstAVA();
        String type = ava.getAttributeType().getNameOrOID().toLowerCase(java.util.Locale.ROOT);
        Entry e;
        switch (type) {
            case "dc": e = entry(suffix, "top", "domain"); break;
            case "o": e = entry(suffix, "top", "organization"); break;
            case "ou": e = entry(suffix, "top", "organizationalUnit"); break;
            default: e = entry(suffix, "top", "extensibleObject"); break;
        }
        add(e, type, ava.getAttributeValue().toString());
        return e;
    }

    private Entry user(int n) {
        String uid = "user." + n;
        Entry e = entry(people.child(new RDN("uid", uid)), "top", "person", "organizationalPerson", "inetOrgPerson");
        add(e, "uid", uid);
        add(e, "cn", "User " + n);
        add(e, "sn", Integer.toString(n));
        add(e, "givenName", "User");
        add(e, "mail", uid + "@" + mailDomain);
        add(e, "employeeNumber", Integer.toString(n));
        e.addAttribute(new LinkedAttribute(passwords.description(), "{" + ssha.name() + "}"
                + ssha.encodeValue(password)));
        return e;
    }

    /** Every entry gets the entryUUID an add would give it; the one its DN gives, as OpenDJ's import does. */
    private Entry entry(DN dn, String... objectClasses) {
        Entry e = new LinkedHashMapEntry(dn);
        add(e, "objectClass", (Object[]) objectClasses);
        add(e, "entryUUID", dn.toUUID().toString());
        return e;
    }

    private void add(Entry e, String attribute, Object... values) {
        e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf(attribute, schema), values));
    }

    /** {@code dc=example,dc=com} gives {@code example.com}; a suffix without dc components {@code example.com}. */
    private static String mailDomain(DN suffix) {
        StringJoiner j = new StringJoiner(".");
        for (RDN rdn : suffix) {
            AVA ava = rdn.getFirstAVA();
            if (ava.getAttributeType().hasName("dc")) {
                j.add(ava.getAttributeValue().toString());
            }
        }
        return j.length() == 0 ? "example.com" : j.toString();
    }
}
