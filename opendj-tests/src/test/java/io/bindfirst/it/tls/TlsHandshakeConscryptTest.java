package io.bindfirst.it.tls;

import io.bindfirst.server.config.ServerConfig;

/** The handshake tests with {@code ds-cfg-ssl-provider: conscrypt} (BoringSSL) instead of the JDK's TLS. */
public class TlsHandshakeConscryptTest extends TlsHandshakeTest {
    @Override
    protected ServerConfig.Tls.Provider provider() {
        return ServerConfig.Tls.Provider.CONSCRYPT;
    }

    @Override
    protected boolean countsTls13Resumption() {
        return false;
    }
}
