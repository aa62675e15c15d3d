package io.bindfirst.server.net;

import org.forgerock.opendj.ldap.ByteSequence;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;

import io.bindfirst.server.filter.FilterDepth;

/**
 * Cuts a search request's filter that nests deeper than {@link FilterDepth#MAX} before the SDK decodes it. The
 * SDK's decoder recurses once a level, and a request within the size limit holds hundreds of thousands of levels:
 * whether that overflowed the decoding thread's stack depended on how much of the decoder the JIT had compiled
 * (compiled frames are smaller), so the same request was sometimes refused with adminLimitExceeded and sometimes
 * ended its connection. Here the filter's BER is walked without recursion, and one that nests too deep is replaced
 * by a chain of NOTs just over the limit, which {@code SearchOperation} refuses (adminLimitExceeded, logged as too
 * deep) as it refuses any filter over the limit: every such request gets the same answer and the connection goes on.
 *
 * <p>Only the structure is read (tags and lengths); a filter whose framing is broken is left as it is, for the
 * SDK to answer protocolError. Requests too short to nest that deep are not walked at all.
 */
final class DeepFilterCut {
    private static final byte AND = (byte) 0xA0;
    private static final byte OR = (byte) 0xA1;
    private static final byte NOT = (byte) 0xA2;
    /** Every level takes at least a tag and a length byte. */
    private static final int SHORTEST_TOO_DEEP = 2 * (FilterDepth.MAX + 1);
    /** The fields before the filter: baseObject, scope, derefAliases, sizeLimit, timeLimit, typesOnly. */
    private static final int FIELDS_BEFORE_FILTER = 6;
    /** NOT nested {@link FilterDepth#MAX} times around {@code (objectClass=*)}: {@code MAX + 1} levels. */
    private static final ByteString JUST_TOO_DEEP = notChain(FilterDepth.MAX);

    private DeepFilterCut() {
    }

    /** The search request's content, its filter replaced by {@link #JUST_TOO_DEEP} if it nests too deep. */
    static ByteString cut(ByteString searchRequest) {
        if (searchRequest.length() < SHORTEST_TOO_DEEP) {
            return searchRequest;
        }
        int filterStart = 0;
        for (int field = 0; field < FIELDS_BEFORE_FILTER; field++) {
            filterStart = elementEnd(searchRequest, filterStart, searchRequest.length());
            if (filterStart < 0) {
                return searchRequest;
            }
        }
        int filterEnd = elementEnd(searchRequest, filterStart, searchRequest.length());
        if (filterEnd < 0 || !tooDeep(searchRequest, filterStart, filterEnd)) {
            return searchRequest;
        }
        ByteStringBuilder out = new ByteStringBuilder(searchRequest.length() - (filterEnd - filterStart)
                + JUST_TOO_DEEP.length());
        out.appendBytes(searchRequest.subSequence(0, filterStart));
        out.appendBytes(JUST_TOO_DEEP);
        out.appendBytes(searchRequest.subSequence(filterEnd, searchRequest.length()));
        return out.toByteString();
    }

    /**
     * Whether the filter element in {@code [start, end)} has an element more than {@link FilterDepth#MAX} levels
     * down, counting as {@code FilterDepth} does (the outermost filter is level 1). Depth first, with the ends of
     * the open AND, OR and NOT elements on a stack of at most MAX entries.
     */
    static boolean tooDeep(ByteSequence bytes, int start, int end) {
        int[] openEnds = new int[FilterDepth.MAX];
        int open = 0;
        int p = start;
        while (true) {
            while (open > 0 && p == openEnds[open - 1]) {
                open--;
            }
            if (p >= end) {
                return false;
            }
            if (open == FilterDepth.MAX) {
                return true; // an element at level MAX + 1
            }
            int contentStart = contentStart(bytes, p, end);
            int elementEnd = elementEnd(bytes, p, end);
            if (contentStart < 0 || elementEnd < 0 || (open > 0 && elementEnd > openEnds[open - 1])) {
                return false; // broken framing: the SDK's decoder says what is wrong with it
            }
            byte tag = bytes.byteAt(p);
            if (tag == AND || tag == OR || tag == NOT) {
                openEnds[open++] = elementEnd;
                p = contentStart;
            } else {
                p = elementEnd;
            }
        }
    }

    /** Where the element at {@code p} ends, or -1 if its tag or length is not one this walk reads or overruns. */
    private static int elementEnd(ByteSequence bytes, int p, int limit) {
        int contentStart = contentStart(bytes, p, limit);
        if (contentStart < 0) {
            return -1;
        }
        long end = (long) contentStart + length(bytes, p + 1);
        return end <= limit ? (int) end : -1;
    }

    /** Where the content of the element at {@code p} starts, or -1 (a multi-byte tag or an unusable length). */
    private static int contentStart(ByteSequence bytes, int p, int limit) {
        if (p + 2 > limit || (bytes.byteAt(p) & 0x1F) == 0x1F) {
            return -1;
        }
        int first = bytes.byteAt(p + 1) & 0xFF;
        if (first < 0x80) {
            return p + 2;
        }
        int lengthBytes = first & 0x7F;
        if (lengthBytes == 0 || lengthBytes > 4 || p + 2 + lengthBytes > limit || length(bytes, p + 1) < 0) {
            return -1; // indefinite, or longer than any request the server takes
        }
        return p + 2 + lengthBytes;
    }

    /** The definite length whose first byte is at {@code q} (already checked to fit); negative if over 2^31. */
    private static long length(ByteSequence bytes, int q) {
        int first = bytes.byteAt(q) & 0xFF;
        if (first < 0x80) {
            return first;
        }
        long length = 0;
        for (int i = 1; i <= (first & 0x7F); i++) {
            length = (length << 8) | (bytes.byteAt(q + i) & 0xFF);
        }
        return length > Integer.MAX_VALUE ? -1 : length;
    }

    /** {@code nots} NOTs around {@code (objectClass=*)}, built inside out. */
    private static ByteString notChain(int nots) {
        ByteString filter = new ByteStringBuilder().appendByte(0x87).appendBERLength(11).appendUtf8("objectClass")
                .toByteString();
        for (int i = 0; i < nots; i++) {
            filter = new ByteStringBuilder(filter.length() + 4).appendByte(NOT).appendBERLength(filter.length())
                    .appendBytes(filter).toByteString();
        }
        return filter;
    }
}
