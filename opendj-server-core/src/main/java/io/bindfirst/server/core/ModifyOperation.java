package io.bindfirst.server.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.Modification;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.PermissiveModifyRequestControl;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.requests.Request;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.core.write.ImpliedObjectClasses;
import io.bindfirst.server.core.write.Modifications;
import io.bindfirst.server.core.write.SchemaChecker;
import io.bindfirst.server.core.write.WriteException;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordValues;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * A modify (RFC 4511 4.6): the changes are applied to the entry as stored, inside the backend's write
 * transaction (so concurrent modifies of one entry never lose each other's changes), then schema
 * checked. New passwords are hashed before the transaction: the backend may retry the update, and a
 * retry must store the same values.
 */
public final class ModifyOperation extends WriteOperation {
    /** The modifications with new passwords hashed, by {@link #prepare}. */
    private List<Modification> prepared;

    private final ModifyRequest request;

    public ModifyOperation(ServerContext server, Session session, int messageId, ModifyRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected Request forwardable() {
        return Requests.copyOfModifyRequest(request);
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected Set<String> writeControls() {
        return Set.of(AssertionRequestControl.OID, PreReadRequestControl.OID, PostReadRequestControl.OID,
                PermissiveModifyRequestControl.OID, VirtualEntries.OID_RELAX_RULES);
    }

    @Override
    protected AccessDecision checkAccess(Requester who) {
        if (relaxed() && !who.root()) {
            return AccessDecision.deny("The Relax Rules control (writing attributes the server maintains) is for "
                    + "root users only");
        }
        return AccessDecision.ALLOW; // decided on the entry as stored, in write
    }

    /**
     * Whether the request carries the Relax Rules control: the entry becomes what the modifications make it, and
     * the server adds nothing of its own. Attributes it maintains may be written; it sets no
     * {@code modifiersName} or {@code modifyTimestamp}; a password written is stored as given, without the
     * password policy's record of a change (no {@code pwdChangedTime}, history or reset flag). Account state
     * carried over from elsewhere (another server, or a replica recording a bind's lockout on its master), not a
     * change made now.
     */
    private boolean relaxed() {
        return hasControl(VirtualEntries.OID_RELAX_RULES);
    }

    @Override
    protected Result prepare(Backend backend) throws PasswordValues.Refused {
        prepared = hashNewPasswords(request.getModifications());
        return null;
    }

    @Override
    protected EntryChange write(Backend backend) throws BackendException {
        return backend.modifyEntry(request.getName(), current -> {
            require(server.accessPolicy().mayModify(accessRequester(), current, request.getModifications()));
            requireAssertion(current);
            server.accounts().passwordChanges().refuse(current, newClearPasswords(), bySelf());
            try {
                Entry updated = Modifications.apply(current, resolvePasswordDeletes(current, prepared),
                        server.schema(), hasControl(PermissiveModifyRequestControl.OID), relaxed());
                ImpliedObjectClasses.addTo(updated, server.schema());
                SchemaChecker.check(updated, server.schema());
                checkRules(updated);
                if (!relaxed()) {
                    stampModified(updated);
                    server.accounts().passwordChanges().stamp(current, updated, requester().root());
                }
                return updated;
            } catch (WriteException e) {
                throw toBackend(e);
            }
        });
    }

    /** Whether the account itself makes this change (not a root user): the minimum password age applies. */
    private boolean bySelf() {
        AuthenticationInfo who = requester();
        return !who.isAnonymous() && !who.root() && request.getName().equals(who.authenticationDN());
    }

    /** The passwords in clear that the request adds or replaces (a root user's pre-encoded values are not). */
    private List<ByteString> newClearPasswords() {
        List<ByteString> out = new ArrayList<>();
        for (Modification m : request.getModifications()) {
            ModificationType t = m.getModificationType();
            if (isPassword(m) && (t == ModificationType.ADD || t == ModificationType.REPLACE)) {
                for (ByteString v : m.getAttribute()) {
                    if (!PasswordValues.looksEncoded(v)) {
                        out.add(v);
                    }
                }
            }
        }
        return out;
    }

    private boolean isPassword(Modification m) {
        return server.passwordAttribute().isPassword(m.getAttribute().getAttributeDescription());
    }

    /** Values added or replaced in {@code userPassword} are stored hashed. */
    private List<Modification> hashNewPasswords(List<Modification> mods) throws PasswordValues.Refused {
        List<Modification> out = new ArrayList<>(mods.size());
        PasswordValues values = new PasswordValues(server.passwordSchemes());
        for (Modification m : mods) {
            ModificationType t = m.getModificationType();
            if (isPassword(m) && !m.getAttribute().isEmpty()
                    && (t == ModificationType.ADD || t == ModificationType.REPLACE)) {
                LinkedAttribute hashed = new LinkedAttribute(m.getAttribute().getAttributeDescription());
                hashed.addAll(values.toStored(m.getAttribute(), requester().root()));
                out.add(new Modification(t, hashed));
            } else {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * A delete of a {@code userPassword} value names the clear password, but the entry holds its hash: map
     * each named value to the stored values it verifies against (none found: noSuchAttribute, as for any
     * value that is not there).
     */
    private List<Modification> resolvePasswordDeletes(Entry current, List<Modification> mods) {
        List<Modification> out = new ArrayList<>(mods.size());
        for (Modification m : mods) {
            if (isPassword(m) && m.getModificationType() == ModificationType.DELETE && !m.getAttribute().isEmpty()) {
                Attribute stored = current.getAttribute(m.getAttribute().getAttributeDescription());
                LinkedAttribute resolved = new LinkedAttribute(m.getAttribute().getAttributeDescription());
                for (ByteString clear : m.getAttribute()) {
                    List<ByteString> matching = stored == null ? List.of()
                            : server.passwordAttribute().storedMatching(stored, clear);
                    // No match: keep the value as given, so the delete fails with noSuchAttribute.
                    resolved.addAll(matching.isEmpty() ? List.of(clear) : matching);
                }
                out.add(new Modification(ModificationType.DELETE, resolved));
            } else {
                out.add(m);
            }
        }
        return out;
    }

    @Override
    protected String kind() {
        return "MODIFY";
    }

    @Override
    public OperationType operationType() {
        return OperationType.MODIFY;
    }

    @Override
    public DN targetDN() {
        return request.getName();
    }
}
