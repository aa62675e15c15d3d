package io.bindfirst.server.group;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Backends;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.commit.Change;
import io.bindfirst.server.commit.CommitPath;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.plugin.CompletedOperationView;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.plugin.Plugin;
import io.bindfirst.server.plugin.PluginPhase;

/**
 * Referential integrity, as OpenDJ's plugin: when an entry is deleted or renamed, the groups that name it (or an
 * entry below it) in the configured attributes ({@code ds-cfg-attribute-type}: member, uniqueMember) lose the
 * value or get the new DN (a uniqueMember's {@code #'...'B} UID kept). It runs post-operation, after the write
 * committed and before its result is sent, so a client that sees its delete succeed finds no group naming the
 * entry. Each group is its own backend update, committed as any change is (the group index, the access rules
 * and the registry see it before the delete's or rename's result); one that fails is logged (error log) and the
 * others go on: the delete or rename itself stands, committed before, as with OpenDJ's plugin. A group left with
 * no member at all is stored so (RFC 4519 makes member required; OpenDJ's schema, like its plugin, does not
 * insist): a dangling value would make whoever later gets that DN a member.
 */
public final class ReferentialIntegrityPlugin implements Plugin {
    private static final Logger LOG = LoggerFactory.getLogger(ReferentialIntegrityPlugin.class);
    private static final Set<Subscription> SUBSCRIPTIONS = Set.of(
            new Subscription(PluginPhase.POST_OPERATION, OperationType.DELETE),
            new Subscription(PluginPhase.POST_OPERATION, OperationType.MODIFY_DN));

    private final Schema schema;
    private final Groups groups;
    private final Backends backends;
    private final CommitPath commits;
    private final List<AttributeType> types;

    /**
     * Built by the server with the parts it needs (not the whole server context: the group package sits below the
     * operations, which read groups).
     *
     * @param config the plugin's configuration: {@code ds-cfg-attribute-type} names the attributes it keeps
     *        (member and uniqueMember when none are given)
     * @throws IllegalArgumentException naming the entry and attribute, for an attribute it cannot keep
     */
    public ReferentialIntegrityPlugin(ServerConfig.PluginConfig config, Schema schema, Groups groups,
                                      Backends backends, CommitPath commits) {
        this.schema = schema;
        this.groups = groups;
        this.backends = backends;
        this.commits = commits;
        this.types = attributeTypes(config, schema);
    }

    /** The attribute types {@code config} names, checked against the schema. */
    private static List<AttributeType> attributeTypes(ServerConfig.PluginConfig config, Schema schema) {
        List<String> names = config.attributeTypes().isEmpty() ? List.of("member", "uniqueMember")
                : config.attributeTypes();
        List<AttributeType> out = new ArrayList<>();
        for (String n : names) {
            AttributeType t = schema.asNonStrictSchema().getAttributeType(n);
            if (t.isPlaceHolder() || !GroupEntry.isMembership(t)) {
                // The group index knows which groups name an entry through these two only.
                throw new IllegalArgumentException(config.entry() + ": ds-cfg-attribute-type: '" + n
                        + "' is not supported; referential integrity keeps member and uniqueMember");
            }
            out.add(t);
        }
        return List.copyOf(out);
    }

    @Override
    public Set<Subscription> subscriptions() {
        return SUBSCRIPTIONS;
    }

    @Override
    public void postOperation(CompletedOperationView operation) {
        if (operation.resultCode() != ResultCode.SUCCESS || operation.change().isEmpty()) {
            return;
        }
        EntryChange change = operation.change().get();
        DN old = change.before().getName();
        DN renamed = change.after() == null ? null : change.after().getName();
        for (DN group : groups.groupsNamingAtOrBelow(old)) {
            Backend backend = backends.backendFor(group);
            if (backend == null) {
                continue;
            }
            try {
                // No client waits for this change itself: nothing it leaves is kept for after an answer.
                commits.commit(Change.of(backend.modifyEntry(group, current -> updated(current, old,
                        renamed)), Change.NO_CONNECTION));
            } catch (BackendException | RuntimeException e) {
                LOG.error("Referential integrity: the group {} still names {} after its {} (the {} stands): {}",
                        group, old, renamed == null ? "delete" : "rename to " + renamed,
                        operation.operationType().name().toLowerCase(Locale.ROOT), e.getMessage());
            }
        }
    }

    /** {@code current} without the values naming {@code old} or below, or with them renamed under {@code renamed}. */
    private Entry updated(Entry current, DN old, DN renamed) {
        Entry out = new LinkedHashMapEntry(current.getName());
        for (Attribute a : current.getAllAttributes()) {
            if (!types.contains(a.getAttributeDescription().getAttributeType())) {
                out.addAttribute(a);
                continue;
            }
            LinkedAttribute kept = new LinkedAttribute(a.getAttributeDescription());
            for (ByteString v : a) {
                String value = v.toString();
                String dnPart = GroupEntry.withoutUid(value);
                DN member = GroupEntry.parse(dnPart, schema);
                if (member == null || !member.isSubordinateOrEqualTo(old)) {
                    kept.add(v);
                } else if (renamed != null) {
                    kept.add(member.rename(old, renamed).toString() + value.substring(dnPart.length()));
                }
            }
            if (!kept.isEmpty()) {
                out.addAttribute(kept);
            }
        }
        return out;
    }
}
