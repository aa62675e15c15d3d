package io.bindfirst.server.access;

import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.schema.AttributeType;

import io.bindfirst.server.pwd.PasswordAttribute;

/**
 * The fixed access rules, when access control is off ({@code ds-cfg-enabled: false} on
 * {@code cn=Access Control Handler}): root users may do anything (backups included).
 * Everyone else (anonymous too) may read every entry but the configuration and the monitor entries, and every
 * attribute but passwords; a user may change their own password (by modify or Password Modify) and nothing else.
 *
 * <p>The monitor ({@code cn=monitor}) is root-only like the configuration, and refused the same way (a
 * search based there is {@code insufficientAccessRights}, a compare {@code noSuchObject}): its numbers tell
 * an outsider how loaded the server is, how many users are bound, which TLS handshakes fail and why, and
 * whether the credential caches are warm, which is help in timing or overloading it, and nothing a client
 * needs to use the directory.
 */
public final class RootOnlyPolicy implements AccessPolicy {
    private static final AccessDecision ADD = AccessDecision.deny("Only root users may add entries");
    private static final AccessDecision DELETE = AccessDecision.deny("Only root users may delete entries");
    private static final AccessDecision RENAME = AccessDecision.deny("Only root users may rename entries");
    private static final AccessDecision MODIFY_OTHER =
            AccessDecision.deny("Only root users may modify other users' entries");
    private static final AccessDecision PASSWORD_OTHER =
            AccessDecision.deny("Only root users may change other users' passwords");
    private static final AccessDecision PROXY = AccessDecision.deny("Only root users may act as another user");
    private static final AccessDecision BACKUP = AccessDecision.deny("Only root users may back up a backend");
    private static final AccessDecision CONFIGURATION =
            AccessDecision.deny("Only root users may read the configuration");
    private static final AccessDecision MONITOR = AccessDecision.deny("Only root users may read the monitor entries");
    private static final AccessDecision READ_PASSWORD =
            AccessDecision.deny("Only root users may read " + PasswordAttribute.NAME);
    private static final AccessDecision COMPARE_PASSWORD =
            AccessDecision.deny("Only root users may compare " + PasswordAttribute.NAME);

    private final PasswordAttribute passwords;
    private final DN configuration;
    private final DN monitor;

    /**
     * @param passwords what the password attribute is
     * @param configuration the suffix of the configuration entries ({@code cn=config}), readable by root
     *        users only
     * @param monitor the suffix of the monitor entries ({@code cn=monitor}), readable by root users only
     */
    public RootOnlyPolicy(PasswordAttribute passwords, DN configuration, DN monitor) {
        this.passwords = passwords;
        this.configuration = configuration;
        this.monitor = monitor;
    }

    @Override
    public AccessDecision maySearchUnder(Requester who, DN base) {
        return visible(who, base);
    }

    @Override
    public AccessDecision maySee(Requester who, Entry entry) {
        return visible(who, entry.getName());
    }

    private AccessDecision visible(Requester who, DN dn) {
        if (who.root()) {
            return AccessDecision.ALLOW;
        }
        if (dn.isSubordinateOrEqualTo(configuration)) {
            return CONFIGURATION;
        }
        return dn.isSubordinateOrEqualTo(monitor) ? MONITOR : AccessDecision.ALLOW;
    }

    @Override
    public AccessDecision mayRead(Requester who, Entry entry, AttributeType type) {
        return who.root() || !passwords.isPassword(type) ? AccessDecision.ALLOW : READ_PASSWORD;
    }

    @Override
    public AccessDecision maySearch(Requester who, Entry entry, AttributeType type) {
        return mayRead(who, entry, type);
    }

    @Override
    public AccessDecision mayCompare(Requester who, Entry entry, AttributeDescription attribute) {
        return who.root() || !passwords.isPassword(attribute) ? AccessDecision.ALLOW : COMPARE_PASSWORD;
    }

    @Override
    public AccessDecision mayAdd(Requester who, Entry entry) {
        return who.root() ? AccessDecision.ALLOW : ADD;
    }

    @Override
    public AccessDecision mayDelete(Requester who, Entry entry) {
        return who.root() ? AccessDecision.ALLOW : DELETE;
    }

    @Override
    public AccessDecision mayRename(Requester who, Entry entry, DN newDN) {
        return who.root() ? AccessDecision.ALLOW : RENAME;
    }

    @Override
    public AccessDecision mayModify(Requester who, Entry entry, List<Modification> modifications) {
        if (who.root()) {
            return AccessDecision.ALLOW;
        }
        if (!who.isSelf(entry.getName())) {
            return MODIFY_OTHER;
        }
        for (Modification m : modifications) {
            if (!passwords.isPassword(m.getAttribute().getAttributeDescription())) {
                return AccessDecision.deny("Users may change only their own " + PasswordAttribute.NAME + ", not "
                        + m.getAttribute().getAttributeDescriptionAsString());
            }
        }
        return AccessDecision.ALLOW;
    }

    @Override
    public AccessDecision mayChangePassword(Requester who, Entry entry) {
        return who.root() || who.isSelf(entry.getName()) ? AccessDecision.ALLOW : PASSWORD_OTHER;
    }

    @Override
    public AccessDecision mayProxyAs(Requester who, Entry target) {
        return who.root() ? AccessDecision.ALLOW : PROXY;
    }

    @Override
    public AccessDecision mayBackUp(Requester who) {
        return who.root() ? AccessDecision.ALLOW : BACKUP;
    }
}
