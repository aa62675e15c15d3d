package io.bindfirst.server.tls;

/** TLS material or settings the server cannot use; the message names the file or setting and what to do. */
public final class TlsConfigException extends Exception {
    public TlsConfigException(String message) {
        super(message);
    }
}
