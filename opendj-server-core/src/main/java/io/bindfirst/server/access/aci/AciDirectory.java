package io.bindfirst.server.access.aci;

import java.time.Clock;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

/** What access control reads from the directory itself to evaluate bind rules. */
public interface AciDirectory {
    /** The entry named {@code dn}, or {@code null} (absent, or the backend failed: such a rule then fails). */
    Entry entry(DN dn);

    /** Whether {@code user} is a member of {@code group}, directly or through nested groups. */
    boolean isMember(DN user, DN group);

    /** The clock of {@code dayofweek} and {@code timeofday}. */
    Clock clock();
}
