package io.bindfirst.server.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.io.LDAPWriter;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DereferenceAliasesPolicy;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.ModificationType;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.SortKey;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.ManageDsaITRequestControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyRequestControl;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.controls.ProxiedAuthV2RequestControl;
import org.forgerock.opendj.ldap.controls.ServerSideSortRequestControl;
import org.forgerock.opendj.ldap.controls.SimplePagedResultsControl;
import org.forgerock.opendj.ldap.controls.SubtreeDeleteRequestControl;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.requests.StartTLSExtendedRequest;

import io.bindfirst.server.core.BackupRequest;
import io.bindfirst.server.core.ControlsFuzzTarget;

/**
 * Writes the committed seed corpus of every fuzz target ({@code src/test/resources/fuzz/<target>/seeds}): real LDAP
 * messages of every operation with the controls the server decodes, encoded by the SDK's writer; control and
 * extended request values; filters, DNs, ACIs and configuration snippets as text. Run it again after changing it:
 * {@code java -cp <test classpath> io.bindfirst.server.fuzz.SeedCorpus src/test/resources/fuzz} from the module.
 */
public final class SeedCorpus {
    private static final String USER = "uid=user.1,ou=People,dc=example,dc=com";

    private SeedCorpus() {
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : "src/test/resources/fuzz");
        requests(root.resolve(FuzzTargets.REQUEST.directory()).resolve("seeds"));
        controls(root.resolve(FuzzTargets.CONTROLS.directory()).resolve("seeds"));
        text(root.resolve(FuzzTargets.FILTER.directory()).resolve("seeds"), FILTERS);
        text(root.resolve(FuzzTargets.DN.directory()).resolve("seeds"), DNS);
        text(root.resolve(FuzzTargets.ACI.directory()).resolve("seeds"), ACIS);
        text(root.resolve(FuzzTargets.CONFIG.directory()).resolve("seeds"), CONFIG_SNIPPETS);
    }

    static final List<String> FILTERS = List.of("(objectClass=*)", "(uid=user.1)", "(&(objectClass=person)(cn=Aa*))",
            "(|(mail=*@example.com)(!(sn=Atp)))", "(cn=*aren*At*)", "(uidNumber>=1000)", "(uidNumber<=1001)",
            "(cn~=aron)", "(cn:caseExactMatch:=Aaren Atp)", "(:dn:2.5.13.5:=People)", "(ou:dn:=People)",
            "(createTimestamp>=20260101000000Z)", "(telephoneNumber=+16856226202)", "(manager=uid=user.0,ou=People,"
            + "dc=example,dc=com)", "(description=\\2a\\28\\29\\5c)", "(&)", "(|)", "(cn;lang-en=x)",
            "(2.5.4.3=Aaren Atp)", "(userPassword=secret)", "(isMemberOf=cn=Admins,ou=Groups,dc=example,dc=com)",
            "(cn=\\c3\\85ke*)");

    static final List<String> DNS = List.of("", "dc=example,dc=com", USER, "cn=Directory Manager",
            "cn=LDAP Connection Handler,cn=Connection Handlers,cn=config",
            "uid=a+cn=b\\, c,ou=People,dc=example,dc=com",
            "cn=#04024869,dc=x", "CN=  Spaced  ,O=\"quoted, value\"", "2.5.4.3=x,0.9.2342.19200300.100.1.25=com",
            "cn=\\e4\\bd\\a0\\e5\\a5\\bd,dc=example", "cn=a\\;b\\<c\\>d\\=e,dc=example");

    static final List<String> ACIS = List.of(
            "(targetattr!=\"userPassword||authPassword\")(version 3.0; acl \"Anonymous read access\"; "
                    + "allow (read,search,compare) userdn=\"ldap:///anyone\";)",
            "(targetattr=\"userPassword\")(version 3.0; acl \"Self password change\"; allow (write) "
                    + "userdn=\"ldap:///self\";)",
            "(target=\"ldap:///uid=*,ou=People,dc=example,dc=com\")(targetattr=\"mail || cn\")"
                    + "(targetfilter=\"(objectClass=person)\")(targetscope=\"onelevel\")(version 3.0; acl \"x\"; "
                    + "deny (write) groupdn=\"ldap:///cn=Admins,ou=Groups,dc=example,dc=com\";)",
            "(targetattr=\"*\")(version 3.0; acl \"a\"; allow (all) userattr=\"manager#USERDN\" and "
                    + "(authmethod=\"simple\" or authmethod=\"sasl EXTERNAL\");)",
            "(targetattr=\"+\")(version 3.0; acl \"b\"; allow (read) ip=\"127.0.0.1,10.0.0.0/8,::1\" and "
                    + "ssf>=\"128\" and not dayofweek=\"sun,sat\" and timeofday>=\"0800\";)",
            "(version 3.0; acl \"c\"; allow (proxy) userdn=\"ldap:///ou=People,dc=example,dc=com??sub?(uid=svc*)\";)",
            "(targetattr=\"member\")(version 3.0; acl \"d\"; allow (selfwrite) userdn=\"ldap:///all\"; "
                    + "allow (add,delete,import,export) userattr=\"owner#GROUPDN\";)",
            "(targetattr=\"cn\")(version 3.0; acl \"e\"; allow (read) userattr=\"departmentNumber#42\";)");

    static final List<String> CONFIG_SNIPPETS = List.of(
            "dn: cn=config\nobjectClass: top\nobjectClass: ds-cfg-root-config\ncn: config\n"
                    + "ds-cfg-size-limit: 1000\nds-cfg-time-limit: 60\n\n"
                    + "dn: cn=Work Queue,cn=config\nobjectClass: top\ncn: Work Queue\nds-cfg-num-worker-threads: 4\n",
            "dn: cn=LDAP Connection Handler,cn=Connection Handlers,cn=config\nobjectClass: top\n"
                    + "ds-cfg-listen-port: 0\nds-cfg-max-request-size: 5 mb\nds-cfg-enabled: true\n",
            "dn: cn=userRoot,cn=Backends,cn=config\nobjectClass: top\nds-cfg-backend-id: userRoot\n"
                    + "ds-cfg-base-dn: dc=example,dc=com\nds-cfg-db-directory: db/userRoot\n"
                    + "ds-cfg-global-aci:: KHRhcmdldGF0dHI9IioiKQ==\n",
            "version: 1\ndn: cn=x,cn=config\nchangetype: add\ncn: x\n description: folded\n line\n");

    private static void text(Path dir, List<String> values) throws IOException {
        for (int i = 0; i < values.size(); i++) {
            write(dir, "seed-" + i, values.get(i).getBytes(StandardCharsets.UTF_8));
        }
    }

    /** One value per kind the controls target knows, in its format: kind, criticality, value. */
    private static void controls(Path dir) throws IOException {
        List<ByteString> values = List.of(
                AssertionRequestControl.newControl(true, Filter.valueOf("(&(cn=Aaren Atp)(uidNumber>=1000))"))
                        .getValue(),
                ServerSideSortRequestControl.newControl(true, SortKey.valueOf("sn"),
                        SortKey.valueOf("-cn:caseExactOrderingMatch")).getValue(),
                SimplePagedResultsControl.newControl(true, 100, pagedCookie()).getValue(),
                PreReadRequestControl.newControl(true, "cn", "mail", "+").getValue(),
                PostReadRequestControl.newControl(true, "*", "entryDN").getValue(),
                ByteString.valueOfUtf8("dn:" + USER),
                Requests.newPasswordModifyExtendedRequest().setUserIdentity("u:user.1").setOldPassword("old".getBytes(
                        StandardCharsets.UTF_8)).setNewPassword("new".getBytes(StandardCharsets.UTF_8)).getValue(),
                Requests.newCancelExtendedRequest(7).getValue(),
                new BackupRequest("userRoot", "/var/backups/userRoot").encode());
        for (int kind = 0; kind < ControlsFuzzTarget.KINDS.size(); kind++) {
            ByteStringBuilder b = new ByteStringBuilder().appendByte(kind).appendByte(1).appendBytes(values.get(kind));
            write(dir, "seed-" + kind, b.toByteArray());
        }
    }

    /** A cookie of this server's form: version 1, a digest, a context and a position; the digest is wrong. */
    private static ByteString pagedCookie() {
        return new ByteStringBuilder().appendByte(1).appendBytes(new byte[16]).appendInt(3)
                .appendByte('s').appendLong(200).toByteString();
    }

    private static void requests(Path dir) throws IOException {
        Control proxied = ProxiedAuthV2RequestControl.newControl("dn:" + USER);
        write(dir, "bind-simple", message(w -> w.writeBindRequest(1, 3, Requests.newGenericBindRequest(USER,
                (byte) 0x80, "password".getBytes(StandardCharsets.UTF_8)))));
        ByteStringBuilder sasl = new ByteStringBuilder();
        ASN1Writer saslWriter = ASN1.getWriter(sasl);
        saslWriter.writeOctetString("PLAIN");
        saslWriter.writeOctetString("\0u:user.1\0password");
        write(dir, "bind-sasl-plain", message(w -> w.writeBindRequest(2, 3,
                Requests.newGenericBindRequest("", (byte) 0xA3, sasl.toByteArray())
                        .addControl(PasswordPolicyRequestControl.newControl(false)))));
        int id = 10;
        for (String filter : FILTERS) {
            if (!parses(filter)) {
                continue; // a seed of the filter target only: the SDK's parser refuses it (numeric OIDs)
            }
            SearchRequest search = Requests.newSearchRequest("dc=example,dc=com", SearchScope.WHOLE_SUBTREE, filter,
                    "cn", "mail", "+").setSizeLimit(10).setDereferenceAliasesPolicy(DereferenceAliasesPolicy.ALWAYS);
            int messageId = id++;
            write(dir, "search-" + messageId, message(w -> w.writeSearchRequest(messageId, search)));
        }
        SearchRequest controlled = Requests.newSearchRequest("ou=People,dc=example,dc=com", SearchScope.SINGLE_LEVEL,
                "(objectClass=person)")
                .addControl(SimplePagedResultsControl.newControl(true, 50, pagedCookie()))
                .addControl(ServerSideSortRequestControl.newControl(false, SortKey.valueOf("sn"),
                        SortKey.valueOf("-uidNumber")))
                .addControl(AssertionRequestControl.newControl(true, Filter.valueOf("(ou=People)")))
                .addControl(proxied).addControl(ManageDsaITRequestControl.newControl(true));
        write(dir, "search-controls", message(w -> w.writeSearchRequest(40, controlled)));
        write(dir, "compare", message(w -> w.writeCompareRequest(41, Requests.newCompareRequest(USER, "mail",
                "user.1@example.com").addControl(AssertionRequestControl.newControl(true,
                Filter.valueOf("(uid=user.1)"))).addControl(proxied))));
        write(dir, "add", message(w -> w.writeAddRequest(42, Requests.newAddRequest(
                "dn: uid=new,ou=People,dc=example,dc=com", "objectClass: inetOrgPerson", "uid: new", "cn: New",
                "sn: New", "userPassword: secret", "aci: (targetattr=\"*\")(version 3.0; acl \"x\"; allow (read) "
                        + "userdn=\"ldap:///self\";)")
                .addControl(PostReadRequestControl.newControl(true, "entryUUID", "cn")))));
        write(dir, "modify", message(w -> w.writeModifyRequest(43, Requests.newModifyRequest(USER)
                .addModification(ModificationType.REPLACE, "mail", "new@example.com")
                .addModification(ModificationType.ADD, "description", "a", "b")
                .addModification(ModificationType.DELETE, "telephoneNumber")
                .addModification(ModificationType.INCREMENT, "uidNumber", "1")
                .addControl(PreReadRequestControl.newControl(true, "mail"))
                .addControl(PostReadRequestControl.newControl(true, "mail")).addControl(proxied))));
        write(dir, "delete", message(w -> w.writeDeleteRequest(44, Requests.newDeleteRequest("ou=Old,dc=example,dc=com")
                .addControl(SubtreeDeleteRequestControl.newControl(true))
                .addControl(AssertionRequestControl.newControl(true, Filter.valueOf("(objectClass=*)"))))));
        write(dir, "modify-dn", message(w -> w.writeModifyDNRequest(45, Requests.newModifyDNRequest(USER,
                "uid=user.one").setDeleteOldRDN(true).setNewSuperior("ou=Others,dc=example,dc=com")
                .addControl(PreReadRequestControl.newControl(true, "uid")))));
        List<ExtendedRequest<?>> extended = List.of(Requests.newWhoAmIExtendedRequest().addControl(proxied),
                Requests.newPasswordModifyExtendedRequest().setUserIdentity("dn:" + USER)
                        .setNewPassword("n".getBytes(StandardCharsets.UTF_8)),
                Requests.newCancelExtendedRequest(40), Requests.newGenericExtendedRequest(StartTLSExtendedRequest.OID),
                Requests.newGenericExtendedRequest(BackupRequest.OID,
                        new BackupRequest("userRoot", "/tmp/backup").encode()));
        for (int i = 0; i < extended.size(); i++) {
            ExtendedRequest<?> request = extended.get(i);
            int messageId = 50 + i;
            write(dir, "extended-" + i, message(w -> w.writeExtendedRequest(messageId, request)));
        }
        write(dir, "abandon", message(w -> w.writeAbandonRequest(60, Requests.newAbandonRequest(40))));
        write(dir, "unbind", message(w -> w.writeUnbindRequest(61, Requests.newUnbindRequest())));
    }

    private static boolean parses(String filter) {
        try {
            Filter.valueOf(filter);
            return true;
        } catch (LocalizedIllegalArgumentException e) {
            return false;
        }
    }

    private interface Writing {
        void write(LDAPWriter<ASN1Writer> writer) throws IOException;
    }

    private static byte[] message(Writing writing) throws IOException {
        ByteStringBuilder b = new ByteStringBuilder();
        writing.write(LDAP.getWriter(ASN1.getWriter(b), 3));
        return b.toByteArray();
    }

    private static void write(Path dir, String name, byte[] bytes) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve(name), bytes);
    }
}
