package io.bindfirst.server.auth;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertTrue;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.util.Date;

import javax.security.auth.x500.X500Principal;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;
import org.testng.annotations.Test;

import io.bindfirst.server.config.ServerConfig.Tls.ClientCertificates.Validation;

public class CertificateMappingTest {
    private static X509Certificate certificate(String subject) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair keys = g.generateKeyPair();
        X500Name name = X500Name.getInstance(new X500Principal(subject).getEncoded());
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(name, BigInteger.ONE,
                new Date(), new Date(System.currentTimeMillis() + 60_000), name, keys.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    /** The JDK's RFC 2253 text would give "0.9.2342.19200300.100.1.1=#0c..." for uid: the DN is built per AVA. */
    @Test
    public void theSubjectIsTheEntrysDnWhateverTheAttributeTypes() throws Exception {
        Schema schema = Schema.getDefaultSchema();
        assertEquals(CertificateMapping.subjectDn(certificate("uid=user.1,ou=People,dc=example,dc=com"), schema),
                DN.valueOf("uid=user.1,ou=People,dc=example,dc=com", schema));
        assertEquals(CertificateMapping.subjectDn(certificate("cn=A \\+ B,o=Example"), schema),
                DN.valueOf("cn=A \\+ B,o=Example", schema), "escaped characters survive");
        assertEquals(CertificateMapping.subjectDn(certificate("cn=x+uid=y,o=Example"), schema),
                DN.valueOf("uid=y+cn=x,o=Example", schema), "a multi-valued RDN");
    }

    @Test
    public void validationPolicies() throws Exception {
        X509Certificate presented = certificate("uid=a,dc=example,dc=com");
        X509Certificate other = certificate("uid=a,dc=example,dc=com");
        Entry without = new LinkedHashMapEntry("uid=a,dc=example,dc=com");
        Entry holding = new LinkedHashMapEntry("uid=a,dc=example,dc=com");
        holding.addAttribute("userCertificate;binary", (Object) presented.getEncoded());
        Entry holdingOther = new LinkedHashMapEntry("uid=a,dc=example,dc=com");
        holdingOther.addAttribute("userCertificate", (Object) other.getEncoded());

        assertTrue(CertificateMapping.accepts(without, presented, Validation.IF_PRESENT));
        assertTrue(CertificateMapping.accepts(holding, presented, Validation.IF_PRESENT));
        assertFalse(CertificateMapping.accepts(holdingOther, presented, Validation.IF_PRESENT));

        assertFalse(CertificateMapping.accepts(without, presented, Validation.ALWAYS));
        assertTrue(CertificateMapping.accepts(holding, presented, Validation.ALWAYS));
        assertFalse(CertificateMapping.accepts(holdingOther, presented, Validation.ALWAYS));

        assertTrue(CertificateMapping.accepts(holdingOther, presented, Validation.NEVER));
    }
}
