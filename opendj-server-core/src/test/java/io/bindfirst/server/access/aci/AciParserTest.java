package io.bindfirst.server.access.aci;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

public class AciParserTest {
    private static final Schema SCHEMA = TestSchema.load();
    private final AciParser parser = new AciParser(SCHEMA);

    @Test
    public void readsEveryTargetAndAClauseWithNestedBindRules() throws Exception {
        Aci aci = parser.parse("(target=\"ldap:///uid=*,ou=People,dc=example,dc=com\")(targetattr=\"cn || sn\")"
                + "(targetfilter=\"(objectClass=person)\")(targetscope=\"onelevel\")"
                + "(version 3.0; acl \"People\"; allow (read, search,compare) (userdn=\"ldap:///anyone\" and "
                + "ssf>=\"128\") or not authmethod=\"none\"; deny (write) userdn!=\"ldap:///self\";)",
                DN.valueOf("ou=People,dc=example,dc=com"));
        assertEquals(aci.name(), "People");
        assertEquals(aci.scope(), SearchScope.SINGLE_LEVEL);
        assertNotNull(aci.target());
        assertNotNull(aci.targetFilter());
        assertTrue(aci.attributes().covers(SCHEMA.getAttributeType("cn")));
        assertFalse(aci.attributes().covers(SCHEMA.getAttributeType("mail")));
        assertEquals(aci.permissions().size(), 2);
        assertEquals(aci.permissions().get(0).rights(), Rights.READ | Rights.SEARCH | Rights.COMPARE);
        assertTrue(aci.permissions().get(0).allow());
        assertTrue(aci.permissions().get(0).rule() instanceof BindRule.Or);
        assertFalse(aci.permissions().get(1).allow());
        assertTrue(aci.permissions().get(1).rule() instanceof BindRule.Not);
    }

    @Test
    public void allIsEveryRightButProxyImportAndExport() throws Exception {
        Aci aci = parser.parse("(version 3.0;acl \"a\";allow(all)userdn=\"ldap:///all\";)", null);
        int r = aci.permissions().get(0).rights();
        assertEquals(r & Rights.PROXY, 0);
        assertEquals(r & (Rights.IMPORT | Rights.EXPORT), 0);
        assertEquals(r & Rights.SELFWRITE, Rights.SELFWRITE);
        assertNull(aci.attributes());
    }

    @Test
    public void targetAttrNegatedCoversUserAttributesButTheListed() throws Exception {
        Aci aci = parser.parse("(targetattr!=\"userPassword\")(version 3.0; acl \"a\"; allow (read) "
                + "userdn=\"ldap:///anyone\";)", null);
        assertFalse(aci.attributes().covers(SCHEMA.getAttributeType("userPassword")));
        assertTrue(aci.attributes().covers(SCHEMA.getAttributeType("mail")));
        assertFalse(aci.attributes().covers(SCHEMA.getAttributeType("aci")), "operational attributes need +");
        Aci plus = parser.parse("(targetattr=\"+\")(version 3.0; acl \"a\"; allow (read) userdn=\"ldap:///anyone\";)",
                null);
        assertTrue(plus.attributes().covers(SCHEMA.getAttributeType("aci")));
        assertFalse(plus.attributes().covers(SCHEMA.getAttributeType("mail")));
        Aci name = parser.parse("(targetattr=\"name\")(version 3.0; acl \"a\"; allow (read) "
                + "userdn=\"ldap:///anyone\";)", null);
        assertTrue(name.attributes().covers(SCHEMA.getAttributeType("cn")), "a supertype covers its subtypes");
    }

    private static final String DEEP_FILTER = "(!".repeat(100_000) + "(cn=x)" + ")".repeat(100_000);

    @DataProvider
    public Object[][] invalid() {
        String rule = "(version 3.0; acl \"a\"; allow (read) userdn=\"ldap:///anyone\";)";
        return new Object[][] {
            {"(targetattr=\"cn\")", "expected '('"},
            {"(targetattr=\"cn\")(version 2.0; acl \"a\"; allow (read) userdn=\"ldap:///anyone\";)",
                "version must be 3.0"},
            {"(targetattr=\"noSuchAttribute\")" + rule, "noSuchAttribute is not in the schema"},
            {"(targetattr!=\"*\")" + rule, "targetattr != takes attribute names"},
            {"(targetattrfilters=\"x\")" + rule, "targetattrfilters is not supported"},
            {"(targetattr=\"cn\")(targetattr=\"sn\")" + rule, "targetattr is given twice"},
            {"(targetscope=\"everywhere\")" + rule, "targetscope is base, onelevel, subtree or subordinate"},
            {"(targetfilter=\"(cn=x\")" + rule, "is not a valid filter"},
            {"(target=\"ldap:///uid=a*,dc=example,dc=com\")" + rule, "wildcard inside a value"},
            {"(target=\"uid=a,dc=example,dc=com\")" + rule, "target needs values of the form ldap:///"},
            {"(version 3.0; acl \"a\"; allow (fly) userdn=\"ldap:///anyone\";)", "unknown right fly"},
            {"(version 3.0; acl \"a\"; permit (read) userdn=\"ldap:///anyone\";)", "expected allow or deny"},
            {"(version 3.0; acl \"a\"; allow (read) userdn=\"ldap:///anyone\")", "expected ';'"},
            {"(version 3.0; acl \"a\"; allow (read) userdn=\"ldap:///anyone;)", "a quoted value is not closed"},
            {"(version 3.0; acl \"a\"; allow (read) roledn=\"ldap:///anyone\";)", "roledn is not supported"},
            {"(version 3.0; acl \"a\"; allow (read) userdn>=\"ldap:///anyone\";)", "userdn takes = or !="},
            {"(version 3.0; acl \"a\"; allow (read) ip=\"not.an.address\";)", "ip needs addresses or blocks"},
            {"(version 3.0; acl \"a\"; allow (read) ip=\"10.0.0.0/33\";)", "prefix length over 32"},
            {"(version 3.0; acl \"a\"; allow (read) ssf>=\"strong\";)", "ssf needs a number"},
            {"(version 3.0; acl \"a\"; allow (read) timeofday>=\"2500\";)", "timeofday takes hhmm"},
            {"(version 3.0; acl \"a\"; allow (read) dayofweek=\"someday\";)", "dayofweek takes"},
            {"(version 3.0; acl \"a\"; allow (read) authmethod=\"magic\";)", "authmethod is none, simple"},
            {"(version 3.0; acl \"a\"; allow (read) userattr=\"parent[1].manager#USERDN\";)", "inheritance"},
            {"(version 3.0; acl \"a\"; allow (read) userattr=\"manager\";)", "userattr needs"},
            {"(version 3.0; acl \"a\";)", "no allow or deny clause"},
            {rule + " trailing", "unexpected text after the ACI's end"},
            {"", "expected '('"},
            // The SDK's filter parser recurses once a level: this deep, it overflowed the stack of the thread
            // that checked an ACI being written.
            {"(targetfilter=\"" + DEEP_FILTER + "\")" + rule, "targetfilter nests more than 100 levels"},
            {"(version 3.0; acl \"a\"; allow (read) userdn=\"ldap:///dc=example,dc=com??sub?" + DEEP_FILTER
                    + "\";)", "nests more than 100 levels"},
        };
    }

    @Test(dataProvider = "invalid")
    public void anInvalidAciIsRefusedSayingWhatIsWrong(String text, String expected) {
        AciParser.AciSyntaxException e = expectThrows(AciParser.AciSyntaxException.class, () -> parser.check(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().startsWith("Invalid ACI \""), e.getMessage());
    }

    @Test
    public void theShippedGlobalAcisParse() throws Exception {
        java.nio.file.Path config = null;
        for (java.nio.file.Path d = java.nio.file.Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (java.nio.file.Files.isRegularFile(d.resolve("config/config.ldif"))) {
                config = d.resolve("config/config.ldif");
                break;
            }
        }
        assertNotNull(config);
        int found = 0;
        try (org.forgerock.opendj.ldif.LDIFEntryReader r = new org.forgerock.opendj.ldif.LDIFEntryReader(
                java.nio.file.Files.newInputStream(config))) {
            while (r.hasNext()) {
                org.forgerock.opendj.ldap.Entry e = r.readEntry();
                org.forgerock.opendj.ldap.Attribute a = e.getAttribute("ds-cfg-global-aci");
                if (a != null) {
                    for (org.forgerock.opendj.ldap.ByteString v : a) {
                        parser.check(v.toString());
                        found++;
                    }
                }
            }
        }
        assertTrue(found >= 3, "found " + found);
    }
}
