package io.bindfirst.it.access;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.core.ServerContext;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.group.Groups;

/**
 * 10,000 groups in the JE backend load in seconds, as the server loads them at start: the search of each user
 * backend for the group object classes (narrowed by the shipped objectClass index), then the index.
 */
public class GroupsLoadTest {
    private static final int GROUPS = 10_000;
    private static final int MEMBERS = 10;
    private static final int USERS = 2_000;

    @Test
    public void tenThousandGroupsLoadInSeconds() throws Exception {
        try (TestServer server = TestServer.start(USERS)) {
            ServerContext ctx = server.server().context();
            Schema schema = ctx.schema();
            Backend backend = ctx.backends().userBackends().get(0);
            DN base = DN.valueOf("ou=Many Groups,dc=example,dc=com", schema);
            List<Entry> entries = new ArrayList<>();
            Entry ou = new LinkedHashMapEntry(base);
            ou.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("objectClass", schema), "top",
                    "organizationalUnit"));
            ou.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("ou", schema), "Many Groups"));
            entries.add(ou);
            for (int g = 0; g < GROUPS; g++) {
                Entry e = new LinkedHashMapEntry(base.child("cn", "group." + g));
                e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("objectClass", schema), "top",
                        "groupOfNames"));
                e.addAttribute(new LinkedAttribute(AttributeDescription.valueOf("cn", schema), "group." + g));
                LinkedAttribute members = new LinkedAttribute(AttributeDescription.valueOf("member", schema));
                for (int m = 0; m < MEMBERS; m++) {
                    members.add(TestServer.user((g * 13 + m * 197) % USERS));
                }
                e.addAttribute(members);
                entries.add(e);
            }
            backend.maintenance().importEntries(entries.iterator());

            Groups groups = new Groups(schema, ctx.backends(), false);
            long t0 = System.nanoTime();
            int loaded = groups.load();
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.printf("Groups.load: %d groups of %d members from JE in %d ms%n", loaded, MEMBERS, ms);
            assertEquals(loaded, GROUPS + 3, "the imported groups and the 3 sample ones");
            assertTrue(ms < 10_000, ms + " ms");
            assertTrue(groups.isMember(DN.valueOf(TestServer.user(13), schema),
                    base.child("cn", "group.1")));
        }
    }
}
