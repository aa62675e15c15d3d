package io.bindfirst.server.tls;

import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.SecureRandom;

import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.DSAExt;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.jcajce.provider.asymmetric.ec.SignatureSpi;

/**
 * Bouncy Castle's ECDSA signatures, started on the {@link SharedCurves} of the key's curve instead of a fresh
 * conversion of it (see there why). Everything else is Bouncy Castle's: the digest, the signer, the encoding, the
 * verification; a key on another curve is converted as Bouncy Castle does.
 */
final class SharedCurveEcdsa {
    private SharedCurveEcdsa() {
    }

    /** {@code SHA256withECDSA}. */
    static final class Sha256 extends SignatureSpi.ecDSA256 {
        private final SharedCurves curves;

        Sha256(SharedCurves curves) {
            this.curves = curves;
        }

        @Override
        protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
            if (!start(curves.privateKey(key), digest, signer, appRandom)) {
                super.engineInitSign(key);
            }
        }
    }

    /** {@code SHA384withECDSA}. */
    static final class Sha384 extends SignatureSpi.ecDSA384 {
        private final SharedCurves curves;

        Sha384(SharedCurves curves) {
            this.curves = curves;
        }

        @Override
        protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
            if (!start(curves.privateKey(key), digest, signer, appRandom)) {
                super.engineInitSign(key);
            }
        }
    }

    /**
     * Starts a signature with {@code key} as Bouncy Castle's class does (the caller's source of randomness if it
     * gave one, else the signer's own); false, and nothing done, without a shared key.
     */
    private static boolean start(ECPrivateKeyParameters key, Digest digest, DSAExt signer, SecureRandom random) {
        if (key == null) {
            return false;
        }
        digest.reset();
        signer.init(true, random == null ? key : new ParametersWithRandom(key, random));
        return true;
    }
}
