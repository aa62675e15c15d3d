package io.bindfirst.server.tls;

import java.util.Locale;

/**
 * The security strength factor (RFC 4513, RFC 4422: roughly the symmetric key size in bits) of a negotiated TLS
 * cipher suite. The SDK's own figure is 0 for every TLS 1.3 suite, whose names do not say "WITH": it is computed
 * here from the name instead, for both versions.
 */
public final class SecurityStrength {
    private SecurityStrength() {
    }

    /** @return the key size of the suite's bulk cipher, 0 for none or an unknown one */
    public static int ofCipherSuite(String suite) {
        if (suite == null) {
            return 0;
        }
        String s = suite.toUpperCase(Locale.ROOT);
        if (s.contains("_NULL_WITH_") || s.endsWith("_WITH_NULL") || s.contains("WITH_NULL_")) {
            return 0;
        }
        if (s.contains("AES_256") || s.contains("CHACHA20") || s.contains("ARIA_256") || s.contains("CAMELLIA_256")) {
            return 256;
        }
        if (s.contains("AES_128") || s.contains("ARIA_128") || s.contains("CAMELLIA_128")) {
            return 128;
        }
        if (s.contains("3DES_EDE")) {
            return 112;
        }
        return 0;
    }
}
