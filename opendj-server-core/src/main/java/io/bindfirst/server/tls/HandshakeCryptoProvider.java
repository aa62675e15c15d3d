package io.bindfirst.server.tls;

import java.security.Provider;
import java.security.Security;
import java.security.SignatureSpi;
import java.util.function.Supplier;

import org.bouncycastle.crypto.util.DigestFactory;
import org.bouncycastle.jcajce.provider.asymmetric.edec.KeyAgreementSpi;
import org.bouncycastle.jcajce.provider.asymmetric.edec.KeyFactorySpi;
import org.bouncycastle.jcajce.provider.asymmetric.edec.KeyPairGeneratorSpi;

/**
 * The public-key arithmetic of the JDK's TLS handshakes done by Bouncy Castle ({@code ds-cfg-ssl-handshake-crypto:
 * bouncycastle}, the default with {@code ds-cfg-ssl-provider: jdk}). JDK 17 computes X25519 and P-256 in plain
 * Java field arithmetic: an ECDSA P-256 signature costs it about 460-550 µs and an X25519 key pair plus agreement
 * about 280 µs, against about 85 (250 through Bouncy Castle's own signature class: {@link SharedCurves} says why)
 * and 130 µs with Bouncy Castle (the same machine, warmed up, one thread). A full TLS 1.3
 * handshake does all three on the server, a resumed one (PSK with a fresh key exchange, the only mode the JDK
 * offers) the X25519 part. The JDK's TLS code itself stays: record encryption (AES-GCM, which the JDK runs on the
 * processor's AES instructions), hashing and the protocol are untouched.
 *
 * <p>The JDK's TLS asks the Java security framework for these algorithms by name ({@code SHA256withECDSA},
 * {@code SHA384withECDSA}, {@code XDH}), and the framework has one list of providers for the whole JVM: so this
 * puts a provider holding only those services first in that list, and everything else in the process that asks
 * for them (the local CA's certificate signatures, client certificate checks) gets them too, interoperable with
 * the JDK's (the same encodings). Not Bouncy Castle's whole provider: it would also take AES, SHA-2 and HMAC away
 * from the JDK's faster intrinsics. Both implementations are constant-time where a secret is involved (the X25519
 * ladder, the fixed-base comb with cache-safe table lookups for the signature). Tested on OpenJDK builds; Oracle's
 * own builds want a provider of key agreement to be signed, which this one is not: there, set {@code jdk} if
 * handshakes fail.
 */
final class HandshakeCryptoProvider {
    /** The provider's name in the JVM's list. */
    static final String PROVIDER_NAME = "BindFirstHandshake";

    private HandshakeCryptoProvider() {
    }

    /**
     * Puts the provider first in the JVM's list ({@code on}), unless it is there already, or takes it out: a
     * process follows the setting of the server it last started (tests start several in one JVM).
     */
    static synchronized void use(boolean on) {
        boolean installed = inUse();
        if (on && !installed) {
            Security.insertProviderAt(new BouncyCastleHandshakeProvider(), 1);
        } else if (!on && installed) {
            Security.removeProvider(PROVIDER_NAME);
        }
    }

    /** Whether the provider is in the JVM's list. */
    static boolean inUse() {
        return Security.getProvider(PROVIDER_NAME) != null;
    }

    /** Bouncy Castle's implementations of the few services a handshake's public-key steps ask for. */
    private static final class BouncyCastleHandshakeProvider extends Provider {
        private static final long serialVersionUID = 1L;
        private final transient SharedCurves curves = new SharedCurves();

        BouncyCastleHandshakeProvider() {
            super(PROVIDER_NAME, "1.0", "Bouncy Castle's ECDSA (P-256, P-384) and X25519/X448 for TLS handshakes");
            signature("SHA256withECDSA", () -> new SharedCurveEcdsa(DigestFactory.createSHA256(), curves));
            signature("SHA384withECDSA", () -> new SharedCurveEcdsa(DigestFactory.createSHA384(), curves));
            service("KeyPairGenerator", "XDH", KeyPairGeneratorSpi.XDH.class);
            service("KeyAgreement", "XDH", KeyAgreementSpi.XDH.class);
            service("KeyFactory", "XDH", KeyFactorySpi.XDH.class);
        }

        private void service(String type, String algorithm, Class<?> implementation) {
            putService(new Service(this, type, algorithm, implementation.getName(), null, null));
        }

        /** A signature made by this provider's own instances, which share its curves. */
        private void signature(String algorithm, Supplier<SignatureSpi> spi) {
            putService(new Service(this, "Signature", algorithm, SharedCurveEcdsa.class.getName(), null, null) {
                @Override
                public Object newInstance(Object ignored) {
                    return spi.get();
                }
            });
        }
    }
}
