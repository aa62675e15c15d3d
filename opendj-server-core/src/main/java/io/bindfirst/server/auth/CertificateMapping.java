package io.bindfirst.server.auth;

import java.security.cert.CertificateEncodingException;
import java.security.cert.X509Certificate;
import java.util.Arrays;

import java.util.ArrayList;
import java.util.List;

import org.bouncycastle.asn1.ASN1String;
import org.bouncycastle.asn1.x500.AttributeTypeAndValue;
import org.bouncycastle.asn1.x500.X500Name;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.RDN;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Validation;

/**
 * Which entry a client certificate names, for SASL EXTERNAL: the entry whose DN is the certificate's subject
 * (OpenDJ's "Subject Equals DN" mapper), and whether that entry accepts the certificate, by its
 * {@code userCertificate} values and the configured validation policy.
 */
public final class CertificateMapping {
    /** The attribute whose values are the certificates an entry accepts (its ";binary" form on the wire). */
    public static final String USER_CERTIFICATE = "userCertificate";

    private CertificateMapping() {
    }

    /**
     * The certificate's subject as a DN, or {@code null} when a value is not a string. Read from the encoded
     * name, attribute by attribute: the JDK's RFC 2253 text writes {@code uid} (and any type it has no keyword
     * for) as an OID with a hex BER value, which would never equal the entry's DN.
     */
    public static DN subjectDn(X509Certificate certificate, Schema schema) {
        X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
        DN dn = DN.rootDN();
        for (org.bouncycastle.asn1.x500.RDN rdn : subject.getRDNs()) { // most significant first
            List<AVA> avas = new ArrayList<>();
            for (AttributeTypeAndValue atv : rdn.getTypesAndValues()) {
                if (!(atv.getValue() instanceof ASN1String text)) {
                    return null;
                }
                avas.add(new AVA(schema.getAttributeType(atv.getType().getId()), text.getString()));
            }
            if (avas.isEmpty()) {
                return null;
            }
            dn = dn.child(new RDN(avas));
        }
        return dn;
    }

    /** Whether {@code entry}, read with its {@code userCertificate} values, accepts {@code certificate}. */
    public static boolean accepts(Entry entry, X509Certificate certificate, Validation validation) {
        return switch (validation) {
            case NEVER -> true;
            case ALWAYS -> holds(entry, certificate);
            case IF_PRESENT -> !entry.getAllAttributes(USER_CERTIFICATE).iterator().hasNext()
                    || holds(entry, certificate);
        };
    }

    /** Whether one of the entry's {@code userCertificate} values (with or without ";binary") is this certificate. */
    public static boolean holds(Entry entry, X509Certificate certificate) {
        byte[] presented;
        try {
            presented = certificate.getEncoded();
        } catch (CertificateEncodingException e) {
            return false;
        }
        for (Attribute held : entry.getAllAttributes(USER_CERTIFICATE)) {
            for (ByteString value : held) {
                if (Arrays.equals(value.toByteArray(), presented)) {
                    return true;
                }
            }
        }
        return false;
    }
}
