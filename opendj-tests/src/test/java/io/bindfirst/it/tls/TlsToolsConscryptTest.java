package io.bindfirst.it.tls;

import io.bindfirst.server.config.ServerConfig;

/** OpenLDAP's tools and openssl against {@code ds-cfg-ssl-provider: conscrypt} (BoringSSL). */
public class TlsToolsConscryptTest extends TlsToolsTest {
    @Override
    protected ServerConfig.Tls.Provider provider() {
        return ServerConfig.Tls.Provider.CONSCRYPT;
    }
}
