package io.bindfirst.it.tls;

import io.bindfirst.server.config.ServerConfig;

/** The handshake tests with {@code ds-cfg-ssl-handshake-crypto: jdk}: the JDK's own ECDSA and X25519. */
public class TlsHandshakeJdkCryptoTest extends TlsHandshakeTest {
    @Override
    protected ServerConfig.Tls.HandshakeCrypto handshakeCrypto() {
        return ServerConfig.Tls.HandshakeCrypto.JDK;
    }
}
