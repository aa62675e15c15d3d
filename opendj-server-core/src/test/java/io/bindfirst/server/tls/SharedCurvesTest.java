package io.bindfirst.server.tls;

import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNotSame;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.SignatureSpi;
import java.security.spec.ECGenParameterSpec;

import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.util.DigestFactory;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.math.ec.FixedPointPreCompInfo;
import org.bouncycastle.math.ec.FixedPointUtil;
import org.testng.annotations.Test;

/**
 * Signatures start on one set of curve parameters per curve, so that Bouncy Castle's table for its generator is
 * computed once and not per signature (what its own class does, converting the key's curve each time); keys on
 * other curves, or of other kinds, are left to Bouncy Castle's usual conversion, and every signature verifies
 * with the JDK's own ECDSA.
 */
public class SharedCurvesTest {
    private static final byte[] MESSAGE = "a transcript".getBytes(StandardCharsets.UTF_8);

    @Test
    public void keysOfOneCurveShareItsParametersWhateverTheirClass() throws Exception {
        SharedCurves curves = new SharedCurves();
        ECDomainParameters p256 = curves.parametersOf(keys("secp256r1", "SunEC").getPrivate());
        assertNotNull(p256);
        assertSame(curves.parametersOf(keys("secp256r1", "SunEC").getPrivate()), p256, "another key, same curve");
        assertSame(curves.parametersOf(keys("secp256r1", new BouncyCastleProvider()).getPrivate()), p256,
                "Bouncy Castle's key class");
        ECDomainParameters p384 = curves.parametersOf(keys("secp384r1", "SunEC").getPrivate());
        assertNotNull(p384);
        assertNotSame(p384, p256);
        assertNull(curves.parametersOf(keys("secp521r1", "SunEC").getPrivate()), "a curve not shared");
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(1024);
        assertNull(curves.parametersOf(rsa.generateKeyPair().getPrivate()), "not an EC key");
    }

    @Test
    public void theGeneratorsTableIsComputedOnceForEverySignature() throws Exception {
        SharedCurves curves = new SharedCurves();
        KeyPair keys = keys("secp256r1", "SunEC");
        ECDomainParameters shared = curves.parametersOf(keys.getPrivate());
        assertNull(shared.getCurve().getPreCompInfo(shared.getG(), FixedPointUtil.PRECOMP_NAME), "none yet");
        verify(sign(sha256(curves), "SHA256withECDSA", keys), keys, "SHA256withECDSA");
        FixedPointPreCompInfo table = FixedPointUtil.getFixedPointPreCompInfo(
                shared.getCurve().getPreCompInfo(shared.getG(), FixedPointUtil.PRECOMP_NAME));
        assertNotNull(table.getLookupTable(), "the first signature computed the table on the shared generator");

        KeyPair other = keys("secp256r1", "SunEC");
        verify(sign(sha256(curves), "SHA256withECDSA", other), other, "SHA256withECDSA");
        assertSame(FixedPointUtil.getFixedPointPreCompInfo(shared.getCurve().getPreCompInfo(shared.getG(),
                FixedPointUtil.PRECOMP_NAME)).getLookupTable(), table.getLookupTable(), "not computed again");
    }

    @Test
    public void everyCurveAndDigestVerifiesWithTheJdk() throws Exception {
        SharedCurves curves = new SharedCurves();
        for (String curve : new String[] {"secp256r1", "secp384r1", "secp521r1"}) {
            KeyPair keys = keys(curve, "SunEC");
            verify(sign(sha256(curves), "SHA256withECDSA", keys), keys, "SHA256withECDSA");
            verify(sign(sha384(curves), "SHA384withECDSA", keys), keys, "SHA384withECDSA");

            Signature jdk = Signature.getInstance("SHA256withECDSA", "SunEC");
            jdk.initSign(keys.getPrivate());
            jdk.update(MESSAGE);
            Signature ours = Signature.getInstance("SHA256withECDSA", only(sha256(curves), "SHA256withECDSA"));
            ours.initVerify(keys.getPublic());
            ours.update(MESSAGE);
            assertTrue(ours.verify(jdk.sign()), "it verifies the JDK's on " + curve);
        }
    }

    private static SignatureSpi sha256(SharedCurves curves) {
        return new SharedCurveEcdsa(DigestFactory.createSHA256(), curves);
    }

    private static SignatureSpi sha384(SharedCurves curves) {
        return new SharedCurveEcdsa(DigestFactory.createSHA384(), curves);
    }

    private static KeyPair keys(String curve, Object provider) throws Exception {
        KeyPairGenerator generator = provider instanceof String name ? KeyPairGenerator.getInstance("EC", name)
                : KeyPairGenerator.getInstance("EC", (java.security.Provider) provider);
        generator.initialize(new ECGenParameterSpec(curve));
        return generator.generateKeyPair();
    }

    /** A signature by {@code spi} as the JCA would run it, through a provider that hands out that instance. */
    private static byte[] sign(SignatureSpi spi, String algorithm, KeyPair keys) throws Exception {
        Signature signature = Signature.getInstance(algorithm, only(spi, algorithm));
        signature.initSign(keys.getPrivate());
        signature.update(MESSAGE);
        return signature.sign();
    }

    private static java.security.Provider only(SignatureSpi spi, String algorithm) {
        return new java.security.Provider("SharedCurvesTest", "1.0", "one instance") {
            private static final long serialVersionUID = 1L;

            {
                putService(new Service(this, "Signature", algorithm, spi.getClass().getName(), null, null) {
                    @Override
                    public Object newInstance(Object ignored) {
                        return spi;
                    }
                });
            }
        };
    }

    private static void verify(byte[] signature, KeyPair keys, String algorithm) throws Exception {
        Signature jdk = Signature.getInstance(algorithm, "SunEC");
        jdk.initVerify(keys.getPublic());
        jdk.update(MESSAGE);
        assertTrue(jdk.verify(signature), algorithm + " on " + keys.getPublic());
    }
}
