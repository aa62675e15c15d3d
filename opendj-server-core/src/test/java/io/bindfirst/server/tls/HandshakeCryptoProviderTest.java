package io.bindfirst.server.tls;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Security;
import java.security.Signature;
import java.security.interfaces.XECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.NamedParameterSpec;
import java.security.spec.XECPublicKeySpec;

import javax.crypto.KeyAgreement;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

/**
 * The handshake provider answers the JDK's TLS by the names it asks for, and what it computes is what the JDK
 * computes: a signature either side makes the other verifies, and an X25519 agreement between one side's key and
 * the other's gives both the same secret (a client with the JDK's arithmetic meets the server with Bouncy
 * Castle's). Handshakes through it, by the JDK, OpenSSL and GnuTLS clients, are the integration tests' (TLS tests
 * with the default setting, {@code TlsHandshakeJdkCryptoTest} without it).
 */
public class HandshakeCryptoProviderTest {
    private static final byte[] MESSAGE = "the handshake transcript's hash".getBytes(StandardCharsets.UTF_8);
    private boolean wasInUse;

    @BeforeClass
    public void remember() {
        wasInUse = HandshakeCryptoProvider.inUse();
    }

    @AfterClass(alwaysRun = true)
    public void restore() {
        HandshakeCryptoProvider.use(wasInUse);
    }

    @Test
    public void ecdsaSignaturesComeFromItAndVerifyEitherWay() throws Exception {
        HandshakeCryptoProvider.use(true);
        assertEquals(Security.getProviders()[0].getName(), HandshakeCryptoProvider.PROVIDER_NAME);
        for (String[] curve : new String[][] {{"secp256r1", "SHA256withECDSA"}, {"secp384r1", "SHA384withECDSA"}}) {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "SunEC");
            generator.initialize(new ECGenParameterSpec(curve[0]));
            KeyPair keys = generator.generateKeyPair();

            Signature ours = Signature.getInstance(curve[1]);
            ours.initSign(keys.getPrivate());
            ours.update(MESSAGE);
            byte[] signature = ours.sign();
            assertEquals(ours.getProvider().getName(), HandshakeCryptoProvider.PROVIDER_NAME, curve[1]);

            Signature jdk = Signature.getInstance(curve[1], "SunEC");
            jdk.initVerify(keys.getPublic());
            jdk.update(MESSAGE);
            assertTrue(jdk.verify(signature), "the JDK verifies its " + curve[1]);

            jdk.initSign(keys.getPrivate());
            jdk.update(MESSAGE);
            byte[] jdkSignature = jdk.sign();
            Signature verifier = Signature.getInstance(curve[1]);
            verifier.initVerify(keys.getPublic());
            verifier.update(MESSAGE);
            assertTrue(verifier.verify(jdkSignature), "it verifies the JDK's " + curve[1]);
            verifier.initVerify(keys.getPublic());
            verifier.update("another message".getBytes(StandardCharsets.UTF_8));
            assertFalse(verifier.verify(jdkSignature), "a signature of another message");
        }
    }

    @Test
    public void x25519AgreesWithTheJdksAsTheHandshakeAsksForIt() throws Exception {
        HandshakeCryptoProvider.use(true);
        // as the JDK's TLS makes its own key share: "XDH" with the group's parameters
        KeyPairGenerator generator = KeyPairGenerator.getInstance("XDH");
        generator.initialize(NamedParameterSpec.X25519);
        KeyPair server = generator.generateKeyPair();
        assertEquals(generator.getProvider().getName(), HandshakeCryptoProvider.PROVIDER_NAME);
        assertTrue(server.getPublic() instanceof XECPublicKey, "the JDK's TLS encodes an XECPublicKey");

        KeyPairGenerator jdkGenerator = KeyPairGenerator.getInstance("XDH", "SunEC");
        jdkGenerator.initialize(NamedParameterSpec.X25519);
        KeyPair client = jdkGenerator.generateKeyPair();

        // as the JDK's TLS reads the peer's key share: its u coordinate through a KeyFactory
        KeyFactory factory = KeyFactory.getInstance("XDH");
        XECPublicKey clientShare = (XECPublicKey) factory.generatePublic(
                new XECPublicKeySpec(NamedParameterSpec.X25519, ((XECPublicKey) client.getPublic()).getU()));
        assertEquals(factory.getProvider().getName(), HandshakeCryptoProvider.PROVIDER_NAME);

        KeyAgreement ours = KeyAgreement.getInstance("XDH");
        ours.init(server.getPrivate());
        ours.doPhase(clientShare, true);
        byte[] serverSecret = ours.generateSecret();
        assertEquals(ours.getProvider().getName(), HandshakeCryptoProvider.PROVIDER_NAME);

        KeyFactory jdkFactory = KeyFactory.getInstance("XDH", "SunEC");
        XECPublicKey serverShare = (XECPublicKey) jdkFactory.generatePublic(
                new XECPublicKeySpec(NamedParameterSpec.X25519, ((XECPublicKey) server.getPublic()).getU()));
        KeyAgreement jdk = KeyAgreement.getInstance("XDH", "SunEC");
        jdk.init(client.getPrivate());
        jdk.doPhase(serverShare, true);
        assertEquals(serverSecret, jdk.generateSecret(), "both sides derive the same secret");
    }

    @Test
    public void offLeavesTheJdksOwn() throws Exception {
        HandshakeCryptoProvider.use(true);
        HandshakeCryptoProvider.use(false);
        assertNull(Security.getProvider(HandshakeCryptoProvider.PROVIDER_NAME));
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC", "SunEC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        Signature jdk = Signature.getInstance("SHA256withECDSA");
        jdk.initSign(generator.generateKeyPair().getPrivate());
        assertEquals(jdk.getProvider().getName(), "SunEC");
        HandshakeCryptoProvider.use(true);
        HandshakeCryptoProvider.use(true); // once in the list, whatever the calls
        long ours = java.util.Arrays.stream(Security.getProviders())
                .filter(p -> p.getName().equals(HandshakeCryptoProvider.PROVIDER_NAME)).count();
        assertEquals(ours, 1);
    }
}
