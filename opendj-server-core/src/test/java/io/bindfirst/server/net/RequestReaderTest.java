package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertTrue;
import static org.testng.Assert.expectThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;
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

    /**
     * The reader keeps its buffers from one request to the next: a request decoded earlier must not change when the
     * next is read into them (a bind's name and password are still the bind's when its answer is built, which for a
     * bind queued to a worker is after later requests of its connection were read). Requests of different lengths,
     * a search between them, a malformed one, and one larger than the buffers keep.
     */
    @Test
    public void aRequestKeepsItsValuesWhenTheNextIsRead() throws Exception {
        List<GenericBindRequest> binds = new ArrayList<>();
        List<Integer> ids = new ArrayList<>();
        AbstractLDAPMessageHandler handler = new AbstractLDAPMessageHandler() {
            @Override
            public void bindRequest(int messageID, int version, GenericBindRequest request) {
                ids.add(messageID);
                binds.add(request);
            }

            @Override
            public void searchRequest(int messageID, SearchRequest request) {
                ids.add(messageID);
            }
        };
        String big = "x".repeat(RequestReader.KEPT_CAPACITY * 3);
        String[] names = {"uid=user.1,ou=People,dc=example,dc=com", "uid=u,dc=x", "cn=" + big + ",dc=example,dc=com",
            "uid=user.4321,ou=People,dc=example,dc=com", "uid=a,dc=b"};
        for (int i = 0; i < names.length; i++) {
            reader.read(ASN1.getReader(bind(i + 1, names[i], "secret-" + i + "-" + names[i].length())), handler);
            if (i == 1) {
                reader.read(ASN1.getReader(search(100, "(uid=" + big + ")")), handler);
                expectThrows(DecodeException.class, () -> read("substrings-filter-without-substrings"));
            }
        }
        assertEquals(ids, List.of(1, 2, 100, 3, 4, 5));
        for (int i = 0; i < names.length; i++) {
            assertEquals(binds.get(i).getName(), names[i], "bind " + (i + 1) + "'s name");
            assertEquals(ByteString.wrap(binds.get(i).getAuthenticationValue()).toString(),
                    "secret-" + i + "-" + names[i].length(), "bind " + (i + 1) + "'s password");
        }
    }

    /**
     * A request whose operation breaks off inside an element (an AND whose only filter claims more bytes than the
     * AND holds) must not leave the kept reader inside that element: the next request decodes from its start. (The
     * SDK closes its open sequences as the exception passes, and the reader is replaced after a failure besides.)
     */
    @Test
    public void aRequestBrokenInsideAnElementDoesNotDerailTheNext() throws Exception {
        List<String> names = new ArrayList<>();
        AbstractLDAPMessageHandler handler = new AbstractLDAPMessageHandler() {
            @Override
            public void bindRequest(int messageID, int version, GenericBindRequest request) {
                names.add(request.getName());
            }
        };
        byte[] brokenSearch = {0x30, 0x1D, 0x02, 0x01, 0x07, 0x63, 0x18,
            0x04, 0x00, 0x0A, 0x01, 0x00, 0x0A, 0x01, 0x00, 0x02, 0x01, 0x00, 0x02, 0x01, 0x00, 0x01, 0x01, 0x00,
            (byte) 0xA0, 0x03, 0x04, 0x05, 0x61, 0x30, 0x00};
        for (int i = 0; i < 3; i++) {
            expectThrows(DecodeException.class, () -> reader.read(ASN1.getReader(brokenSearch), handler));
            reader.read(ASN1.getReader(bind(i + 1, "uid=user." + i + ",dc=example,dc=com", "secret")), handler);
        }
        assertEquals(names, List.of("uid=user.0,dc=example,dc=com", "uid=user.1,dc=example,dc=com",
                "uid=user.2,dc=example,dc=com"));
    }

    private static ByteStringBuilder bind(int messageId, String name, String password) throws Exception {
        ByteStringBuilder bytes = new ByteStringBuilder();
        LDAP.getWriter(ASN1.getWriter(bytes), 0).writeBindRequest(messageId, 3,
                Requests.newGenericBindRequest(name, LDAP.TYPE_AUTHENTICATION_SIMPLE,
                        password.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return bytes;
    }

    private static ByteStringBuilder search(int messageId, String filter) throws Exception {
        ByteStringBuilder bytes = new ByteStringBuilder();
        LDAP.getWriter(ASN1.getWriter(bytes), 0).writeSearchRequest(messageId,
                Requests.newSearchRequest("dc=example,dc=com", SearchScope.WHOLE_SUBTREE, filter));
        return bytes;
    }

    private void read(String regression) throws Exception {
        reader.read(ASN1.getReader(ByteString.wrap(Files.readAllBytes(REGRESSIONS.resolve(regression)))),
                connection.decoder());
    }
}
