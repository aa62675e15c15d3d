package io.bindfirst.server.tls;

import java.math.BigInteger;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECField;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.sec.SECObjectIdentifiers;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECNamedDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.math.ec.ECPoint;

/**
 * The NIST curves a server key is on (P-256, P-384), as one set of Bouncy Castle domain parameters each, kept for
 * every signature. Bouncy Castle's own signature class converts the key's curve for each signature it starts, and
 * with it the generator point, on which its fixed-base multiplication keeps the table it precomputes: a converted
 * generator is a new point, so every signature computed that table again, a third of what a full TLS handshake
 * allocated on this server and much of the signature's arithmetic. With the generator kept here the table is
 * computed once per curve and provider.
 */
final class SharedCurves {
    /** Beyond this many distinct parameter objects seen (one per curve in practice), look-ups are not kept. */
    private static final int MAX_REMEMBERED = 32;

    private final List<ECNamedDomainParameters> curves = List.of(named(SECObjectIdentifiers.secp256r1),
            named(SECObjectIdentifiers.secp384r1));
    /** By the key's parameter object itself (keys of one curve share it), which curve it is, if one of these. */
    private final Map<ECParameterSpec, Optional<ECNamedDomainParameters>> bySpec = new ConcurrentHashMap<>();

    /**
     * {@code key} as Bouncy Castle's signer takes it, on the shared parameters of its curve; {@code null} when
     * the key is not an EC key or its curve is not one of these (the caller then converts it the usual way).
     */
    ECPrivateKeyParameters privateKey(Object key) {
        if (!(key instanceof ECPrivateKey ec) || ec.getParams() == null) {
            return null;
        }
        BigInteger secret = ec.getS();
        if (secret == null) {
            return null; // a key that keeps its secret out of reach (a token's): Bouncy Castle's path decides
        }
        ECParameterSpec spec = ec.getParams();
        Optional<ECNamedDomainParameters> curve = bySpec.get(spec);
        if (curve == null) {
            curve = Optional.ofNullable(matching(spec));
            if (bySpec.size() < MAX_REMEMBERED) {
                bySpec.putIfAbsent(spec, curve);
            }
        }
        return curve.map(c -> new ECPrivateKeyParameters(secret, c)).orElse(null);
    }

    /** The shared curve whose every parameter {@code spec} has, or {@code null}. */
    private ECNamedDomainParameters matching(ECParameterSpec spec) {
        ECField field = spec.getCurve().getField();
        if (!(field instanceof ECFieldFp prime)) {
            return null;
        }
        for (ECNamedDomainParameters c : curves) {
            if (c.getCurve().getField().getCharacteristic().equals(prime.getP())
                    && c.getCurve().getA().toBigInteger().equals(spec.getCurve().getA())
                    && c.getCurve().getB().toBigInteger().equals(spec.getCurve().getB())
                    && c.getG().getAffineXCoord().toBigInteger().equals(spec.getGenerator().getAffineX())
                    && c.getG().getAffineYCoord().toBigInteger().equals(spec.getGenerator().getAffineY())
                    && c.getN().equals(spec.getOrder())
                    && c.getH().equals(BigInteger.valueOf(spec.getCofactor()))) {
                return c;
            }
        }
        return null;
    }

    /**
     * Bouncy Castle's parameters of the curve, with a generator point of this object's own: the table kept on it
     * is then this object's, not one shared through the library's static instances.
     */
    private static ECNamedDomainParameters named(ASN1ObjectIdentifier oid) {
        X9ECParameters x9 = CustomNamedCurves.getByOID(oid);
        ECPoint g = x9.getCurve().createPoint(x9.getG().getAffineXCoord().toBigInteger(),
                x9.getG().getAffineYCoord().toBigInteger());
        return new ECNamedDomainParameters(oid, x9.getCurve(), g, x9.getN(), x9.getH(), x9.getSeed());
    }

    /** For tests: the parameters {@code key} is signed on, if shared. */
    ECDomainParameters parametersOf(Object key) {
        ECPrivateKeyParameters p = privateKey(key);
        return p == null ? null : p.getParameters();
    }
}
