package io.bindfirst.server.virtual;

import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.requests.CancelExtendedRequest;
import org.forgerock.opendj.ldap.controls.PermissiveModifyRequestControl;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.controls.ServerSideSortRequestControl;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * Entries the server makes up rather than stores: the root DSE (RFC 4512 5.1) and the subschema entry
 * {@code cn=schema}. Both are built once at start, since nothing they show changes while running.
 */
public final class VirtualEntries {
    public static final DN SCHEMA_DN = DN.valueOf("cn=schema");
    public static final String VENDOR_NAME = "bindfirst project";
    public static final String VENDOR_VERSION = "bindfirst directory server 0.1.0";

    /** RFC 4532 Who am I? */
    public static final String OID_WHO_AM_I = "1.3.6.1.4.1.4203.1.11.3";
    /** RFC 3062 Password Modify. */
    public static final String OID_PASSWORD_MODIFY = "1.3.6.1.4.1.4203.1.11.1";
    /** RFC 4511 4.14 StartTLS. */
    /** This server's backup request (bin/backup), under the project's arc: 7 administration, 1 backup. */
    public static final String OID_BACKUP = "2.25.305628560300754793145753553485247618117.7.1";
    public static final String OID_START_TLS = "1.3.6.1.4.1.1466.20037";
    /** RFC 3829 authorization identity request control, answered on bind. */
    public static final String OID_AUTHZ_ID_REQUEST = "2.16.840.1.113730.3.4.16";
    /** RFC 3296 ManageDsaIT: accepted everywhere (this server holds no referral entries). */
    public static final String OID_MANAGE_DSAIT = "2.16.840.1.113730.3.4.2";
    /** The Relax Rules control (draft-zeilenga-ldap-relax; OpenLDAP's {@code ldapmodify -e relax}). */
    public static final String OID_RELAX_RULES = "1.3.6.1.4.1.4203.666.5.12";
    /** RFC 4370 Proxied Authorization v2: an operation runs as another identity. */
    public static final String OID_PROXIED_AUTHZ_V2 = "2.16.840.1.113730.3.4.18";
    /** The Password Policy request and response control (draft-behera-ldap-password-policy). */
    public static final String OID_PASSWORD_POLICY = "1.3.6.1.4.1.42.2.27.8.5.1";
    /** Subtree Delete (draft-armijo-ldap-treedelete), on deletes. */
    public static final String OID_SUBTREE_DELETE = "1.2.840.113556.1.4.805";
    /** RFC 2696 Simple Paged Results, on searches. */
    public static final String OID_PAGED_RESULTS = "1.2.840.113556.1.4.319";
    /** RFC 3673 "+" returns all operational attributes. */
    public static final String FEATURE_ALL_OPERATIONAL = "1.3.6.1.4.1.4203.1.5.1";
    /** RFC 4525 3: the increment modification (Modifications applies it). */
    public static final String FEATURE_MODIFY_INCREMENT = "1.3.6.1.1.14";
    /** RFC 4526 2: the absolute true and false filters, {@code (&)} and {@code (|)}. */
    public static final String FEATURE_TRUE_FALSE_FILTERS = "1.3.6.1.4.1.4203.1.5.3";

    private final Entry rootDse;
    private final Entry schemaEntry;

    /**
     * @param privateSuffixes the server's own suffixes besides {@code cn=schema} ({@code cn=config},
     *        {@code cn=monitor}), listed as OpenDJ lists them, in {@code ds-private-naming-contexts}
     * @param startTls whether the LDAP listener offers StartTLS (the root DSE lists it only then)
     * @param saslExternal whether client certificates are asked for (EXTERNAL is listed only then)
     * @param saslPlain whether SASL PLAIN is enabled (listed only then)
     */
    public VirtualEntries(Schema schema, List<DN> namingContexts, List<DN> privateSuffixes, boolean startTls,
                          boolean saslExternal, boolean saslPlain) {
        this.rootDse = rootDse(schema, namingContexts, privateSuffixes, startTls, saslExternal, saslPlain);
        this.schemaEntry = schemaEntry(schema);
    }

    public Entry rootDse() {
        return rootDse;
    }

    public Entry schemaEntry() {
        return schemaEntry;
    }

    private static Entry rootDse(Schema schema, List<DN> namingContexts, List<DN> privateSuffixes,
                                 boolean startTls, boolean saslExternal, boolean saslPlain) {
        Entry e = new LinkedHashMapEntry(DN.rootDN());
        e.addAttribute("objectClass", "top", "ds-root-dse");
        for (DN dn : namingContexts) {
            e.addAttribute("namingContexts", dn.toString());
        }
        // Where a client finds cn=monitor (and the configuration): OpenDJ's attribute for it.
        for (DN dn : privateSuffixes) {
            e.addAttribute("ds-private-naming-contexts", dn.toString());
        }
        e.addAttribute("ds-private-naming-contexts", SCHEMA_DN.toString());
        e.addAttribute("subschemaSubentry", SCHEMA_DN.toString());
        e.addAttribute("supportedLDAPVersion", "3");
        e.addAttribute("supportedExtension", OID_WHO_AM_I, OID_PASSWORD_MODIFY, OID_BACKUP,
                CancelExtendedRequest.OID);
        if (startTls) {
            e.addAttribute("supportedExtension", OID_START_TLS);
        }
        if (saslExternal) {
            e.addAttribute("supportedSASLMechanisms", "EXTERNAL");
        }
        if (saslPlain) {
            e.addAttribute("supportedSASLMechanisms", "PLAIN");
        }
        // The Password Policy control is answered on binds (accountLocked); other operations ignore it.
        // Each control some operation implements (docs/ARCHITECTURE.md, "Controls"), and no other.
        e.addAttribute("supportedControl", OID_AUTHZ_ID_REQUEST, OID_MANAGE_DSAIT, OID_PASSWORD_POLICY,
                OID_PAGED_RESULTS, AssertionRequestControl.OID, PreReadRequestControl.OID,
                PostReadRequestControl.OID, PermissiveModifyRequestControl.OID, ServerSideSortRequestControl.OID,
                OID_SUBTREE_DELETE, OID_RELAX_RULES);
        e.addAttribute("supportedControl", OID_PROXIED_AUTHZ_V2);
        e.addAttribute("supportedFeatures", FEATURE_ALL_OPERATIONAL, FEATURE_MODIFY_INCREMENT,
                FEATURE_TRUE_FALSE_FILTERS);
        e.addAttribute("supportedAuthPasswordSchemes", "SSHA", "SSHA256", "SSHA384", "SSHA512");
        e.addAttribute("vendorName", VENDOR_NAME);
        e.addAttribute("vendorVersion", VENDOR_VERSION);
        return withSchema(e, schema);
    }

    private static Entry schemaEntry(Schema schema) {
        Entry e = new LinkedHashMapEntry(SCHEMA_DN);
        e.addAttribute("objectClass", "top", "ldapSubentry", "subschema");
        e.addAttribute("cn", "schema");
        schema.toEntry(e);
        return withSchema(e, schema);
    }

    /** Re-creates the entry with attribute descriptions from {@code schema}, so operational ones are known. */
    private static Entry withSchema(Entry e, Schema schema) {
        Entry out = new LinkedHashMapEntry(e.getName());
        e.getAllAttributes().forEach(a -> {
            org.forgerock.opendj.ldap.AttributeDescription ad = org.forgerock.opendj.ldap.AttributeDescription
                    .valueOf(a.getAttributeDescriptionAsString(), schema);
            out.addAttribute(new org.forgerock.opendj.ldap.LinkedAttribute(ad, a));
        });
        return out;
    }
}
