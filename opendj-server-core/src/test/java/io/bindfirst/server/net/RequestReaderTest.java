package io.bindfirst.server.net;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.testng.annotations.Test;

/**
 * What {@link RequestReader} makes of malformed messages the fuzzer found ({@code fuzz/request/regressions} in the
 * test resources): the SDK's unchecked exceptions become the decode errors the request handler answers. Non-fatal (a
 * protocolError
 * result, the connection goes on) when the envelope was read whole; fatal (a notice of disconnection) when the
 * envelope itself is broken.
 */
public class RequestReaderTest {
    private static final Path REGRESSIONS = Path.of(System.getProperty("basedir", "."),
            "src/test/resources/fuzz/request/regressions");

    private final RequestReader reader = new RequestReader(new DecodeOptions());
    private final TestConnection connection = new TestConnection(4);

    @Test
    public void aSubstringsFilterWithoutSubstringsIsAnsweredProtocolError() throws Exception {
        DecodeException e = expectThrows(DecodeException.class, () -> read("substrings-filter-without-substrings"));
        assertFalse(e.isFatal(), "the envelope was read whole: the request is answered and the connection goes on");
        assertTrue(e.getMessage().contains("substring"), e.getMessage());
    }

    @Test
    public void anEnvelopeWithANegativeLengthClosesWithANotice() throws Exception {
        DecodeException e = expectThrows(DecodeException.class, () -> read("negative-length-envelope"));
        assertTrue(e.isFatal(), "the stream is out of step: the connection is closed with a notice");
    }

    @Test
    public void aSoundRequestStillDecodes() throws Exception {
        RequestDecoder decoder = connection.decoder();
        reader.read(ASN1.getReader(ByteString.wrap(Files.readAllBytes(REGRESSIONS.resolveSibling("seeds")
                .resolve("search-controls")))), decoder);
        assertNotNull(decoder.operation);
    }

    private void read(String regression) throws Exception {
        reader.read(ASN1.getReader(ByteString.wrap(Files.readAllBytes(REGRESSIONS.resolve(regression)))),
                connection.decoder());
    }
}
