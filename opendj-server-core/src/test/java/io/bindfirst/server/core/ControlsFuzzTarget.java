package io.bindfirst.server.core;

import java.net.InetAddress;
import java.util.List;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.GenericControl;
import org.forgerock.opendj.ldap.controls.PostReadRequestControl;
import org.forgerock.opendj.ldap.controls.PreReadRequestControl;
import org.forgerock.opendj.ldap.controls.ServerSideSortRequestControl;
import org.forgerock.opendj.ldap.controls.SimplePagedResultsControl;
import org.forgerock.opendj.ldap.requests.CancelExtendedRequest;
import org.forgerock.opendj.ldap.requests.PasswordModifyExtendedRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.filter.FilterDepth;
import io.bindfirst.server.access.AccessPolicy;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.access.RootOnlyPolicy;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.fuzz.Fuzzing;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * Jazzer target: the values of the request controls and extended requests the server decodes, each decoded as the
 * operation that takes it does ({@link SdkDecodeErrors#decodeControl}, as {@link Operation#control} does, then
 * {@link Assertion},
 * {@link SortedResults}, {@link PagedResults} and its cookie, the pre/post read attribute lists, the proxied
 * authorization identity, password modify, cancel, backup). Input: the first byte chooses what the rest is the value
 * of, the second byte's low bit is the criticality. Expected: {@link DecodeException} (the operation answers
 * protocolError) and {@link PagedResults.InvalidCookie} (unwillingToPerform); anything else is a finding.
 */
public final class ControlsFuzzTarget {
    /** What the first byte chooses (modulo their number); the seed generator writes one seed per kind. */
    public static final List<String> KINDS = List.of(AssertionRequestControl.OID, ServerSideSortRequestControl.OID,
            SimplePagedResultsControl.OID, PreReadRequestControl.OID, PostReadRequestControl.OID,
            VirtualEntries.OID_PROXIED_AUTHZ_V2, PasswordModifyExtendedRequest.OID, CancelExtendedRequest.OID,
            BackupRequest.OID);

    private static final DN CONFIG = DN.valueOf("cn=config");
    private static final DN MONITOR = DN.valueOf("cn=monitor");
    private static final Requester ANONYMOUS =
            new Requester(AuthenticationInfo.ANONYMOUS, InetAddress.getLoopbackAddress(), 0);

    private static Schema schema;
    private static Entry entry;
    private static AccessPolicy policy;
    private static final SearchRequest SEARCH = Requests.newSearchRequest("ou=People,dc=example,dc=com",
            SearchScope.WHOLE_SUBTREE, "(objectClass=person)", "cn", "mail");

    private ControlsFuzzTarget() {
    }

    public static void fuzzerInitialize() {
        initialize(Fuzzing.serverSchema());
    }

    /** What {@link #exercise} needs, for the request target too. */
    public static void initialize(Schema serverSchema) {
        schema = serverSchema;
        entry = FilterFuzzTarget.sampleEntry();
        policy = new RootOnlyPolicy(new PasswordAttribute(schema, new PasswordSchemes("SSHA512", false)), CONFIG,
                MONITOR);
    }

    public static void fuzzerTestOneInput(byte[] data) throws Exception {
        if (data.length < 2) {
            return;
        }
        String oid = KINDS.get(Byte.toUnsignedInt(data[0]) % KINDS.size());
        boolean critical = (data[1] & 1) != 0;
        ByteString value = ByteString.wrap(data, 2, data.length - 2);
        Fuzzing.withinAllowance(data.length, () -> {
            try {
                exercise(GenericControl.newControl(oid, critical, value));
            } catch (DecodeException e) {
                // the documented answer: protocolError
            }
        });
    }

    /**
     * Decodes {@code c} as the operation that understands its OID would; shared with the request target, which
     * passes every control a decoded message carries.
     */
    public static void exercise(Control c) throws DecodeException {
        String oid = c.getOID();
        if (AssertionRequestControl.OID.equals(oid)) {
            AssertionRequestControl control = SdkDecodeErrors.decodeControl(AssertionRequestControl.DECODER, c, schema);
            Assertion assertion = Assertion.of(control, schema);
            assertion.failure();
            if (!FilterDepth.tooDeep(control.getFilter())) {
                assertion.holds(entry, policy, ANONYMOUS);
            }
        } else if (ServerSideSortRequestControl.OID.equals(oid)) {
            SortedResults sort = SortedResults.of(
                    SdkDecodeErrors.decodeControl(ServerSideSortRequestControl.DECODER, c, schema),
                    schema, 100);
            sort.usable();
            sort.identity();
        } else if (SimplePagedResultsControl.OID.equals(oid)) {
            SimplePagedResultsControl control =
                    SdkDecodeErrors.decodeControl(SimplePagedResultsControl.DECODER, c, schema);
            PagedResults paging = PagedResults.of(control, SEARCH, AuthenticationInfo.ANONYMOUS, "");
            try {
                paging.resume(control.getCookie());
            } catch (PagedResults.InvalidCookie e) {
                // the documented answer: unwillingToPerform
            }
        } else if (PreReadRequestControl.OID.equals(oid)) {
            SdkDecodeErrors.decodeControl(PreReadRequestControl.DECODER, c, schema).getAttributes()
                    .forEach(String::length);
        } else if (PostReadRequestControl.OID.equals(oid)) {
            SdkDecodeErrors.decodeControl(PostReadRequestControl.DECODER, c, schema).getAttributes()
                    .forEach(String::length);
        } else if (VirtualEntries.OID_PROXIED_AUTHZ_V2.equals(oid) && c.hasValue()) {
            AuthorizationIdentity.ofControlValue(c.getValue());
        } else if (PasswordModifyExtendedRequest.OID.equals(oid)) {
            try { // what PasswordModifyOperation.checkRequest catches
                PasswordModifyExtendedRequest.DECODER.decodeExtendedRequest(
                        Requests.newGenericExtendedRequest(oid, c.getValue()), new DecodeOptions().setSchema(schema));
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw SdkDecodeErrors.malformed(e);
            }
        } else if (CancelExtendedRequest.OID.equals(oid)) {
            try { // what CancelOperation.execute catches
                CancelExtendedRequest.DECODER.decodeExtendedRequest(
                        Requests.newGenericExtendedRequest(oid, c.getValue()), new DecodeOptions()).getRequestID();
            } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                throw SdkDecodeErrors.malformed(e);
            }
        } else if (BackupRequest.OID.equals(oid)) {
            BackupRequest.decode(c.getValue());
        }
    }
}
