package io.bindfirst.it;

/**
 * The handshake tests with {@code ds-cfg-ssl-handshake-threads: 2}: handshake steps run on their own threads,
 * reads are suspended and resumed there while a handshake is in progress.
 */
public class TlsHandshakeOffSelectorTest extends TlsHandshakeTest {
    @Override
    protected int handshakeThreads() {
        return 2;
    }
}
