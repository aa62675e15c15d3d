package io.bindfirst.server.access.aci;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.Privileges;
import io.bindfirst.server.commit.AfterAnswer;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.pwd.PasswordAttribute;

/**
 * Access control by ACIs in OpenDJ's syntax (docs/ACCESS-CONTROL.md): global ACIs from the configuration and
 * {@code aci} values held by entries, which apply to the holder's subtree. A request is allowed when some ACI
 * allows it and none denies it (deny wins); nothing allows by default. Root users are not subject to ACIs
 * (OpenDJ's bypass-acl privilege, which root users hold); the configuration and the monitor are theirs and of users
 * with the config-read and monitor-read privileges ({@link Privileges}).
 * The root DSE and the schema entry are readable by everyone.
 *
 * <p>ACIs are compiled once and kept as an immutable {@link AciSet}; a write that changes an {@code aci}
 * value publishes the next set in {@link #written} before the write is acknowledged, so the next operation
 * sees it. Invalid ACIs are refused on write ({@link #invalidRules}); one found in the data at start is
 * logged and ignored, which can only take access away.
 */
public final class AciPolicy implements AccessPolicy {
    private static final Logger LOG = LoggerFactory.getLogger(AciPolicy.class);
    private static final AccessDecision CONFIGURATION =
            AccessDecision.deny("Only root users may read the configuration");
    private static final AccessDecision MONITOR = AccessDecision.deny("Only root users may read the monitor entries");
    private static final AccessDecision PASSWORDS =
            AccessDecision.deny("Only root users may read the root users' passwords");
    private static final AccessDecision UNINDEXED = AccessDecision.deny("This search's filter uses no index, and an "
            + "unindexed search needs the unindexed-search privilege: use an indexed attribute (or ask for the "
            + "privilege)");
    private static final AccessDecision BACKUP = AccessDecision.deny("Only root users may back up a backend");

    private final Schema schema;
    private final AciParser parser;
    private final AttributeDescription aciAttribute;
    private final PasswordAttribute passwords;
    private final AciDirectory directory;
    private final DN configuration;
    private final DN monitor;
    private final DN schemaEntry;
    private volatile AciSet acis = AciSet.EMPTY;
    private volatile boolean unindexedNeedsPrivilege;

    /**
     * @param directory reads entries and group membership for bind rules
     * @param configuration the configuration suffix ({@code cn=config}), root users' only
     * @param monitor the monitor suffix ({@code cn=monitor}), root users' only
     * @param schemaEntry the subschema entry, readable by everyone
     */
    public AciPolicy(Schema schema, PasswordAttribute passwords, AciDirectory directory, DN configuration,
                     DN monitor, DN schemaEntry) {
        this.schema = schema;
        this.parser = new AciParser(schema);
        this.aciAttribute = AttributeDescription.valueOf("aci", schema);
        this.passwords = passwords;
        this.directory = directory;
        this.configuration = configuration;
        this.monitor = monitor;
        this.schemaEntry = schemaEntry;
    }

    /** Sets the global ACIs; each invalid one is refused with its message. */
    public synchronized void setGlobal(List<String> texts) throws AciParser.AciSyntaxException {
        List<Aci> out = new ArrayList<>();
        for (String t : texts) {
            out.add(parser.parse(t, null));
        }
        acis = acis.withGlobal(out);
    }

    /** Takes the ACIs {@code entry} holds (at start); an invalid one is logged and ignored. */
    public synchronized void load(Entry entry) {
        List<Aci> held = compile(entry, true);
        if (!held.isEmpty()) {
            acis = acis.withHeld(entry.getName(), held);
        }
    }

    /** How many ACIs are in force (global and held). */
    public int size() {
        return acis.size();
    }

    /** The attribute holding ACIs in entries. */
    public AttributeDescription aciAttribute() {
        return aciAttribute;
    }

    // ---- writes ----------------------------------------------------------------------------------------------

    @Override
    public String invalidRules(Entry entry) {
        Attribute a = entry.getAttribute(aciAttribute);
        if (a == null) {
            return null;
        }
        for (ByteString v : a) {
            try {
                parser.parse(v.toString(), entry.getName());
            } catch (AciParser.AciSyntaxException e) {
                return e.getMessage();
            }
        }
        return null;
    }

    @Override
    public synchronized void committed(Change change, AfterAnswer afterAnswer) {
        Entry before = change.before();
        Entry after = change.after();
        if (after == null) {
            if (before != null) {
                acis = acis.withoutSubtree(before.getName()); // a subtree delete removes what is below too
            }
            return;
        }
        if (before != null && !before.getName().equals(after.getName())) {
            acis = acis.withSubtreeMoved(before.getName(), after.getName(), Aci::heldBy);
        }
        if (before == null || holdsAcis(before) || holdsAcis(after)) {
            acis = acis.withHeld(after.getName(), compile(after, false));
        }
    }

    private boolean holdsAcis(Entry e) {
        Attribute a = e.getAttribute(aciAttribute);
        return a != null && !a.isEmpty();
    }

    private List<Aci> compile(Entry entry, boolean logErrors) {
        Attribute a = entry.getAttribute(aciAttribute);
        if (a == null) {
            return List.of();
        }
        List<Aci> out = new ArrayList<>(a.size());
        for (ByteString v : a) {
            try {
                out.add(parser.parse(v.toString(), entry.getName()));
            } catch (AciParser.AciSyntaxException e) {
                if (logErrors) {
                    LOG.warn("Ignoring an ACI of {}: {}", entry.getName(), e.getMessage());
                }
            }
        }
        return out;
    }

    // ---- decisions -------------------------------------------------------------------------------------------

    @Override
    public AccessDecision maySearchUnder(Requester who, DN base) {
        return who.root() ? AccessDecision.ALLOW : closedSubtree(who, base);
    }

    @Override
    public AccessDecision maySee(Requester who, Entry entry) {
        if (who.root() || isPublic(entry.getName())) {
            return AccessDecision.ALLOW;
        }
        if (isPrivileged(entry.getName())) {
            return closedSubtree(who, entry.getName());
        }
        return decide(who, entry, null, Rights.READ, "read");
    }

    @Override
    public AccessDecision mayRead(Requester who, Entry entry, AttributeType type) {
        if (who.root() || isPublic(entry.getName())) {
            return AccessDecision.ALLOW;
        }
        if (isPrivileged(entry.getName())) {
            return privilegedRead(who, entry, type);
        }
        return decide(who, entry, type, Rights.READ, "read");
    }

    @Override
    public AccessDecision maySearch(Requester who, Entry entry, AttributeType type) {
        if (who.root() || isPublic(entry.getName())) {
            return AccessDecision.ALLOW;
        }
        if (isPrivileged(entry.getName())) {
            return privilegedRead(who, entry, type);
        }
        return decide(who, entry, type, Rights.SEARCH, "search");
    }

    @Override
    public AccessDecision mayCompare(Requester who, Entry entry, AttributeDescription attribute) {
        if (who.root() || isPublic(entry.getName())) {
            return AccessDecision.ALLOW;
        }
        if (isPrivileged(entry.getName())) {
            return privilegedRead(who, entry, attribute.getAttributeType());
        }
        return decide(who, entry, attribute.getAttributeType(), Rights.COMPARE, "compare");
    }

    @Override
    public AccessDecision mayAdd(Requester who, Entry entry) {
        return who.root() ? AccessDecision.ALLOW : decide(who, entry, null, Rights.ADD, "add");
    }

    @Override
    public AccessDecision mayDelete(Requester who, Entry entry) {
        return who.root() ? AccessDecision.ALLOW : decide(who, entry, null, Rights.DELETE, "delete");
    }

    /**
     * A rename needs {@code write} on the attributes of the old and the new RDN; a move to another superior also
     * needs {@code export} of the entry where it is and {@code import} of it where it goes.
     */
    @Override
    public AccessDecision mayRename(Requester who, Entry entry, DN newDN) {
        if (who.root()) {
            return AccessDecision.ALLOW;
        }
        for (DN dn : List.of(entry.getName(), newDN)) {
            for (AVA ava : dn.rdn()) {
                AccessDecision d = decide(who, entry, ava.getAttributeType(), Rights.WRITE, "write");
                if (!d.allowed()) {
                    return d;
                }
            }
        }
        if (!entry.getName().parent().equals(newDN.parent())) {
            AccessDecision out = decide(who, entry, null, Rights.EXPORT, "export");
            if (!out.allowed()) {
                return out;
            }
            Entry moved = new LinkedHashMapEntry(entry);
            moved.setName(newDN);
            return decide(who, moved, null, Rights.IMPORT, "import");
        }
        return AccessDecision.ALLOW;
    }

    /**
     * Each modified attribute needs {@code write}; adding or deleting one's own DN as the only value needs
     * {@code selfwrite} at least (a user joining or leaving a group); another user's password also needs the
     * password-reset privilege.
     */
    @Override
    public AccessDecision mayModify(Requester who, Entry entry, List<Modification> modifications) {
        if (who.root()) {
            return AccessDecision.ALLOW;
        }
        for (Modification m : modifications) {
            AttributeType type = m.getAttribute().getAttributeDescription().getAttributeType();
            if (passwords.isPassword(type) && !who.isSelf(entry.getName())
                    && !who.auth().holds(Privileges.PASSWORD_RESET)) {
                return AccessDecision.deny("Changing another user's password needs the password-reset privilege");
            }
            AccessDecision d = decide(who, entry, type, Rights.WRITE, "write");
            if (!d.allowed() && isSelfValue(who, m)) {
                d = decide(who, entry, type, Rights.SELFWRITE, "selfwrite");
            }
            if (!d.allowed()) {
                return d;
            }
        }
        return AccessDecision.ALLOW;
    }

    private static boolean isSelfValue(Requester who, Modification m) {
        if (who.isAnonymous() || m.getModificationType() == ModificationType.REPLACE
                || m.getAttribute().size() != 1) {
            return false;
        }
        try {
            return DN.valueOf(m.getAttribute().firstValueAsString()).equals(who.dn());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A user changes their own password with {@code write} on it; another user's also needs the password-reset
     * privilege, as in OpenDJ.
     */
    @Override
    public AccessDecision mayChangePassword(Requester who, Entry entry) {
        if (who.root()) {
            return AccessDecision.ALLOW;
        }
        if (!who.isSelf(entry.getName()) && !who.auth().holds(Privileges.PASSWORD_RESET)) {
            return AccessDecision.deny("Changing another user's password needs the password-reset privilege");
        }
        return decide(who, entry, passwords.type(), Rights.WRITE, "write");
    }

    /** Acting as another user needs the proxied-auth privilege and the {@code proxy} right on that user's entry. */
    @Override
    public AccessDecision mayProxyAs(Requester who, Entry target) {
        if (who.root()) {
            return AccessDecision.ALLOW;
        }
        if (!who.auth().holds(Privileges.PROXIED_AUTH)) {
            return AccessDecision.deny("Acting as another user needs the proxied-auth privilege");
        }
        return decide(who, target, null, Rights.PROXY, "proxy");
    }

    /** Whether an unindexed search needs the unindexed-search privilege ({@link #mayRunUnindexed}). */
    public void setUnindexedSearchNeedsPrivilege(boolean needed) {
        unindexedNeedsPrivilege = needed;
    }

    @Override
    public AccessDecision mayRunUnindexed(Requester who) {
        if (!unindexedNeedsPrivilege || who.root() || who.auth().holds(Privileges.UNINDEXED_SEARCH)) {
            return AccessDecision.ALLOW;
        }
        return UNINDEXED;
    }

    @Override
    public AccessDecision mayBackUp(Requester who) {
        return who.root() ? AccessDecision.ALLOW : BACKUP;
    }

    /**
     * The configuration and the monitor are not decided by ACIs: the config-read and monitor-read privileges open
     * them whole (root users' passwords in the configuration excepted).
     */
    private AccessDecision closedSubtree(Requester who, DN dn) {
        if (dn.isSubordinateOrEqualTo(configuration)) {
            return who.auth().holds(Privileges.CONFIG_READ) ? AccessDecision.ALLOW : CONFIGURATION;
        }
        if (dn.isSubordinateOrEqualTo(monitor)) {
            return who.auth().holds(Privileges.MONITOR_READ) ? AccessDecision.ALLOW : MONITOR;
        }
        return AccessDecision.ALLOW;
    }

    private boolean isPrivileged(DN dn) {
        return dn.isSubordinateOrEqualTo(configuration) || dn.isSubordinateOrEqualTo(monitor);
    }

    private AccessDecision privilegedRead(Requester who, Entry entry, AttributeType type) {
        AccessDecision subtree = closedSubtree(who, entry.getName());
        if (subtree != AccessDecision.ALLOW) {
            return subtree;
        }
        return passwords.isPassword(type) ? PASSWORDS : AccessDecision.ALLOW;
    }

    private boolean isPublic(DN dn) {
        return dn.isRootDN() || dn.equals(schemaEntry);
    }

    /** The ACIs' answer for {@code right} on {@code type} of {@code entry} ({@code null}: the entry itself). */
    private AccessDecision decide(Requester who, Entry entry, AttributeType type, int right, String rightName) {
        Evaluation e = new Evaluation(new AciContext(who, entry, directory), entry, type, right);
        acis.forEachCandidate(entry.getName(), e);
        if (e.denied || !e.allowed) {
            return AccessDecision.deny("The requester has no " + rightName + " access to "
                    + (type == null ? "the entry " : type.getNameOrOID() + " of ") + entry.getName());
        }
        return AccessDecision.ALLOW;
    }

    /** One decision's walk over the candidate ACIs: any matching deny wins over every allow. */
    private static final class Evaluation implements java.util.function.Consumer<Aci> {
        private final AciContext context;
        private final Entry entry;
        private final AttributeType type;
        private final int right;
        boolean allowed;
        boolean denied;

        Evaluation(AciContext context, Entry entry, AttributeType type, int right) {
            this.context = context;
            this.entry = entry;
            this.type = type;
            this.right = right;
        }

        @Override
        public void accept(Aci aci) {
            if (denied) {
                return;
            }
            boolean applies = false;
            boolean checked = false;
            for (Aci.Permission p : aci.permissions()) {
                if ((p.rights() & right) == 0 || (p.allow() && allowed) || !aci.speaksOf(type, right, p.allow())) {
                    continue;
                }
                if (!checked) {
                    applies = aci.appliesTo(entry);
                    checked = true;
                }
                if (!applies) {
                    return;
                }
                if (p.rule().matches(context)) {
                    if (p.allow()) {
                        allowed = true;
                    } else {
                        denied = true;
                        return;
                    }
                }
            }
        }
    }
}
