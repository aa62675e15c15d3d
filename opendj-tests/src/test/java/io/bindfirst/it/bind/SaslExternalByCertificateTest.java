package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.expectThrows;



import org.testng.annotations.Test;

import com.unboundid.ldap.sdk.EXTERNALBindRequest;
import com.unboundid.ldap.sdk.LDAPConnection;
import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.ResultCode;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedRequest;
import com.unboundid.ldap.sdk.extensions.WhoAmIExtendedResult;

import io.bindfirst.it.support.ClientCertificates;
import io.bindfirst.it.support.TestServer;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Mapping;

/**
 * SASL EXTERNAL with {@code ds-cfg-certificate-mapping: user-certificate}: the certificate names the one entry
 * that holds it in userCertificate, whatever the certificate's subject; with an equality index on
 * userCertificate, as docs/OPERATIONS.md advises.
 */
public class SaslExternalByCertificateTest extends SaslExternalServer {
    @Override
    protected Mapping mapping() {
        return Mapping.USER_CERTIFICATE;
    }

    /** As docs/OPERATIONS.md advises: the lookup by certificate (issuer and serial) is then an index lookup. */
    @Override
    protected ServerConfig configure(ServerConfig c) {
        return c.withEqualityIndex("userCertificate");
    }

    @Test
    public void theEntryHoldingTheCertificateIsTheOneBound() throws Exception {
        ClientCertificates.Issued cert = clientCa.issue("cn=Someone Else,o=Elsewhere");
        give(TestServer.user(7), cert);
        try (LDAPConnection c = ldaps(cert)) {
            assertEquals(c.bind(new EXTERNALBindRequest()).getResultCode(), ResultCode.SUCCESS);
            WhoAmIExtendedResult who = (WhoAmIExtendedResult) c.processExtendedOperation(new WhoAmIExtendedRequest());
            assertEquals(who.getAuthorizationID(), "dn:" + TestServer.user(7));
        }
    }

    @Test
    public void aCertificateNoEntryHoldsOrTwoEntriesHoldIsInvalidCredentials() throws Exception {
        try (LDAPConnection c = ldaps(clientCa.issue(TestServer.user(1)))) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new EXTERNALBindRequest()));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS, "the subject alone names no one");
        }
        ClientCertificates.Issued shared = clientCa.issue("cn=Shared");
        give(TestServer.user(8), shared);
        give(TestServer.user(9), shared);
        try (LDAPConnection c = ldaps(shared)) {
            LDAPException e = expectThrows(LDAPException.class, () -> c.bind(new EXTERNALBindRequest()));
            assertEquals(e.getResultCode(), ResultCode.INVALID_CREDENTIALS, "ambiguous");
        }
    }
}
