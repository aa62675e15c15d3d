package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertSame;
import static org.testng.Assert.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Writer;
import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.testng.annotations.Test;

import io.bindfirst.server.filter.FilterDepth;

/**
 * A search whose filter nests deeper than {@link FilterDepth#MAX} reaches the server cut to just over the limit
 * (which the search refuses), however deep it was: the SDK's recursive decoder never sees the depth that could
 * overflow a stack. Filters within the limit, wide ones and broken ones reach the SDK as sent.
 */
public class DeepFilterCutTest {
    private static final byte AND = (byte) 0xA0;
    private static final byte NOT = (byte) 0xA2;

    @Test
    public void aFilterAtTheLimitIsDecodedAsSent() throws Exception {
        SearchRequest received = read(search(nested(FilterDepth.MAX - 1, NOT)));
        assertEquals(nots(received), FilterDepth.MAX - 1);
        assertTrue(received.getFilter().toString().contains("(cn=*)"), received.getFilter().toString());
    }

    @Test
    public void aFilterOneLevelOverIsCutToJustOver() throws Exception {
        SearchRequest received = read(search(nested(FilterDepth.MAX, NOT)));
        assertEquals(nots(received), FilterDepth.MAX);
        assertTrue(received.getFilter().toString().contains("(objectClass=*)"), received.getFilter().toString());
        assertEquals(received.getName().toString(), "dc=example,dc=com", "the fields before the filter are kept");
        assertEquals(received.getAttributes(), List.of("cn"), "the attributes after the filter are kept");
    }

    /**
     * 300,000 levels of AND and NOT, decoded on a thread with a 256 KiB stack: without the cut the SDK's decoder
     * overflows it (so this test fails), with it the request arrives with its filter just over the limit.
     */
    @Test(timeOut = 60_000)
    public void aFilterHundredsOfThousandsDeepIsCutBeforeTheSdkRecurses() throws Exception {
        byte[] message = search(nested(300_000, AND, NOT));
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                outcome.set(read(message));
            } catch (Throwable e) {
                outcome.set(e);
            }
        }, "small-stack", 256 * 1024);
        t.start();
        t.join();
        assertTrue(outcome.get() instanceof SearchRequest, String.valueOf(outcome.get()));
        assertEquals(nots((SearchRequest) outcome.get()), FilterDepth.MAX);
    }

    @Test
    public void aWideShallowFilterIsNotWalkedDownAndIsKept() throws Exception {
        ByteStringBuilder and = new ByteStringBuilder();
        for (int i = 0; i < 2_000; i++) {
            and.appendBytes(equality("uid", "user." + i));
        }
        SearchRequest received = read(search(element(AND, and.toByteString())));
        assertTrue(received.getFilter().toString().startsWith("(&(uid=user.0)(uid=user.1)"));
        assertTrue(received.getFilter().toString().endsWith("(uid=user.1999))"));
    }

    @Test
    public void aFilterWhoseLengthsOverrunIsLeftForTheSdkToRefuse() throws Exception {
        // An AND of 50 equalities, then a NOT that claims more bytes than its AND holds: long enough to be walked.
        ByteStringBuilder and = new ByteStringBuilder();
        for (int i = 0; i < 50; i++) {
            and.appendBytes(equality("uid", "user." + i));
        }
        and.appendByte(NOT).appendBERLength(100).appendBytes(equality("uid", "x"));
        ByteString op = searchOp(element(AND, and.toByteString()));
        assertSame(DeepFilterCut.cut(op), op);
        try {
            read(message(op));
            throw new AssertionError("the SDK should refuse the broken filter");
        } catch (DecodeException expected) {
            // Lengths found incorrect: RFC 4511 4.1.1 has the server send a notice of disconnection.
            assertTrue(expected.isFatal(), expected.toString());
        }
    }

    @Test
    public void aShortRequestIsNotWalked() {
        ByteString op = searchOp(equality("uid", "user.1"));
        assertSame(DeepFilterCut.cut(op), op);
    }

    private static int nots(SearchRequest request) {
        String filter = request.getFilter().toString();
        return filter.length() - filter.replace("(!", "").length() >> 1;
    }

    private static SearchRequest read(byte[] message) throws Exception {
        List<SearchRequest> received = new ArrayList<>();
        new RequestReader(new DecodeOptions()).read(ASN1.getReader(message), new AbstractLDAPMessageHandler() {
            @Override
            public void searchRequest(int messageID, SearchRequest request) {
                received.add(request);
            }
        });
        assertEquals(received.size(), 1);
        return received.get(0);
    }

    private static byte[] search(ByteString filter) throws Exception {
        return message(searchOp(filter));
    }

    private static byte[] message(ByteString searchOp) throws Exception {
        ByteStringBuilder out = new ByteStringBuilder();
        ASN1Writer w = ASN1.getWriter(out);
        w.writeStartSequence();
        w.writeInteger(7);
        w.writeOctetString(ExtensibleMatchOrder.SEARCH_REQUEST, searchOp);
        w.writeEndSequence();
        w.flush();
        return out.toByteArray();
    }

    /** The search request's content: base, subtree, never deref, no limits, types and values, filter, (cn). */
    private static ByteString searchOp(ByteString filter) {
        try {
            ByteStringBuilder out = new ByteStringBuilder();
            ASN1Writer w = ASN1.getWriter(out);
            w.writeOctetString("dc=example,dc=com");
            w.writeEnumerated(2);
            w.writeEnumerated(0);
            w.writeInteger(0);
            w.writeInteger(0);
            w.writeBoolean(false);
            w.flush();
            out.appendBytes(filter);
            w.writeStartSequence();
            w.writeOctetString("cn");
            w.writeEndSequence();
            w.flush();
            return out.toByteString();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * {@code levels} constructed elements (tags taken in turn from {@code tags}) around {@code (cn=*)}, written
     * outside in from lengths computed inside out, so a deep one costs no more than its size.
     */
    private static ByteString nested(int levels, byte... tags) {
        ByteString leaf = ByteString.wrap(new byte[] {(byte) 0x87, 2, 'c', 'n'});
        int[] contentLengths = new int[levels];
        int length = leaf.length();
        for (int k = 0; k < levels; k++) { // k = 0 is the innermost
            contentLengths[k] = length;
            length += 1 + berLengthSize(length);
        }
        ByteStringBuilder out = new ByteStringBuilder(length);
        for (int k = levels - 1; k >= 0; k--) {
            out.appendByte(tags[k % tags.length]).appendBERLength(contentLengths[k]);
        }
        return out.appendBytes(leaf).toByteString();
    }

    private static int berLengthSize(int length) {
        return length < 0x80 ? 1 : length < 0x100 ? 2 : length < 0x10000 ? 3 : length < 0x1000000 ? 4 : 5;
    }

    private static ByteString element(byte tag, ByteString content) {
        return new ByteStringBuilder().appendByte(tag).appendBERLength(content.length()).appendBytes(content)
                .toByteString();
    }

    private static ByteString equality(String attribute, String value) {
        ByteStringBuilder ava = new ByteStringBuilder();
        ava.appendBytes(element((byte) 0x04, ByteString.valueOfUtf8(attribute)));
        ava.appendBytes(element((byte) 0x04, ByteString.valueOfUtf8(value)));
        return element((byte) 0xA3, ava.toByteString());
    }
}
