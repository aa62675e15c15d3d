package io.bindfirst.server.tls;

import java.security.AlgorithmParameters;
import java.security.InvalidKeyException;
import java.security.PrivateKey;
import java.security.PublicKey;

import org.bouncycastle.crypto.CipherParameters;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;
import org.bouncycastle.jcajce.provider.asymmetric.util.DSABase;
import org.bouncycastle.jcajce.provider.asymmetric.util.ECUtil;

/**
 * Bouncy Castle's ECDSA signature ({@code SHA256withECDSA} or {@code SHA384withECDSA}, by the digest given), as
 * Bouncy Castle's own class assembles it (its digest, signer and DER encoding), except that a signature starts on
 * the {@link SharedCurves} of the key's curve instead of a fresh conversion of it (see there why). A key on another
 * curve, and verification, go through Bouncy Castle's conversion as in its class.
 */
final class SharedCurveEcdsa extends DSABase {
    private final SharedCurves curves;

    SharedCurveEcdsa(Digest digest, SharedCurves curves) {
        super(digest, new ECDSASigner(), StandardDSAEncoding.INSTANCE);
        this.curves = curves;
    }

    @Override
    protected void engineInitSign(PrivateKey key) throws InvalidKeyException {
        ECPrivateKeyParameters shared = curves.privateKey(key);
        digest.reset();
        if (shared == null) {
            // as Bouncy Castle's class: the caller's source of randomness if it gave one, else the signer's own
            signer.init(true, withRandom(ECUtil.generatePrivateKeyParameter(key)));
        } else {
            signer.init(true, withRandom(shared));
        }
    }

    @Override
    protected void engineInitVerify(PublicKey key) throws InvalidKeyException {
        digest.reset();
        signer.init(false, ECUtil.generatePublicKeyParameter(key));
    }

    /** None, as Bouncy Castle's class: ECDSA takes no parameters. */
    @Override
    protected AlgorithmParameters engineGetParameters() {
        return null;
    }

    private CipherParameters withRandom(CipherParameters key) {
        return appRandom == null ? key : new ParametersWithRandom(key, appRandom);
    }
}
