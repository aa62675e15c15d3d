package io.bindfirst.server.auth;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.cache.FifoCache;

/**
 * Bind DNs parsed once, by the text a client sends. Applications re-bind as the same users all day, and parsing
 * and normalizing a DN was the largest allocation of a cached bind (about a fifth of its bytes: the SDK's own
 * per-thread cache holds too few DNs to catch a population of users): a DN from here comes with its normalized
 * form and hash code already computed, so the bind cache and the root users' map find it without redoing them.
 *
 * <p>Only the names of binds that succeeded are kept ({@link #keep}, after the password matched), so what this
 * holds is bounded by the accounts that exist and the passwords a client knows, not by what a client sends: names
 * that parse but name no one, or come with a wrong password, are parsed each time. Bounded besides in entries
 * (a {@link FifoCache}, whose reads write nothing, sized like the bind caches, whose entries these DNs find) and in
 * the length of a name kept. A parse depends on the schema alone, which does not change while the server runs, so
 * nothing a write does makes an entry here wrong: there is nothing to invalidate. Thread-safe.
 */
public final class BindDns {
    /** Longer bind DNs are parsed each time and not kept. */
    static final int LONGEST_KEPT = 256;

    private final Schema schema;
    /** Null when the size is 0: every bind parses its DN. */
    private final FifoCache<String, DN> parsed;

    public BindDns(Schema schema, long maximumEntries) {
        this.schema = schema;
        this.parsed = maximumEntries <= 0 ? null
                : new FifoCache<>((int) Math.min(maximumEntries, Integer.MAX_VALUE - 8));
    }

    /** The DN kept for {@code name} by an earlier {@link #keep}, or {@code null}. */
    public DN kept(String name) {
        return parsed == null ? null : parsed.get(name);
    }

    /**
     * The DN {@code name} names, parsed under the server's schema (not kept: see {@link #keep}); for a name that
     * {@link #kept} has not.
     *
     * @throws LocalizedIllegalArgumentException if {@code name} is not a valid DN
     */
    public DN parse(String name) {
        return DN.valueOf(name, schema);
    }

    /**
     * Keeps {@code dn}, {@link #parse parsed} from {@code name}, for the next binds with that name: called once a
     * bind with it succeeded.
     */
    public void keep(String name, DN dn) {
        if (parsed != null && name.length() <= LONGEST_KEPT) {
            // Computed before other threads can see it, so they only ever read the DN's lazily filled fields.
            dn.hashCode();
            dn.toString();
            parsed.put(name, dn);
        }
    }

    /** How many DNs are kept. */
    public long size() {
        return parsed == null ? 0 : parsed.size();
    }
}
