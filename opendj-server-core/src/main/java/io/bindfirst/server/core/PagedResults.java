package io.bindfirst.server.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.SimplePagedResultsControl;
import org.forgerock.opendj.ldap.requests.SearchRequest;

import io.bindfirst.server.auth.AuthenticationInfo;

/**
 * The Simple Paged Results control (RFC 2696) of one search request, and its cookies. The server keeps nothing
 * between pages: the cookie says where the last page ended (the naming context, for a search from the root,
 * and the backend's position of the last entry sent) and carries a digest of that position together with the
 * request that made it (requester, base, scope, filter, attributes, types-only, sort keys), so a cookie handed
 * back with another request, or altered, is refused ({@code unwillingToPerform}, as OpenDJ answers an invalid
 * cookie). The digest is not keyed: someone who forges one only chooses where a search of their own starts,
 * and every entry it then returns is checked as any search's are.
 *
 * <p>Each page is a search request of its own, so the size, time and lookthrough limits apply to each page, as
 * in OpenDJ; a page size of 0 ends the paged search (RFC 2696 3), which costs nothing here.
 */
final class PagedResults {
    private static final byte VERSION = 1;
    private static final int DIGEST = 16;

    /** Where a page ended: the index of the naming context (0 unless searching from the root), the position. */
    record Resume(int context, ByteString position) {
    }

    private final int pageSize;
    private final byte[] requestDigest;

    private PagedResults(int pageSize, byte[] requestDigest) {
        this.pageSize = pageSize;
        this.requestDigest = requestDigest;
    }

    /** The paging the request asks for, with {@code sortKeys} (the sort control's value, or empty) in its identity. */
    static PagedResults of(SimplePagedResultsControl control, SearchRequest request, AuthenticationInfo requester,
                           String sortKeys) {
        ByteStringBuilder identity = new ByteStringBuilder();
        field(identity, requester.isAnonymous() ? "" : requester.authenticationDN().toNormalizedUrlSafeString());
        field(identity, request.getName().toNormalizedUrlSafeString());
        field(identity, request.getScope().toString());
        field(identity, request.getFilter().toString());
        for (String a : request.getAttributes()) {
            field(identity, a);
        }
        field(identity, request.isTypesOnly() ? "types" : "values");
        field(identity, sortKeys);
        return new PagedResults(control.getSize(), sha256(identity.toByteArray()));
    }

    private static void field(ByteStringBuilder b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.appendInt(bytes.length).appendBytes(bytes);
    }

    /** A position in a sorted result: the number of entries before it, after {@code 's'}. */
    static ByteString ordinalPosition(long n) {
        return new ByteStringBuilder(9).appendByte('s').appendLong(n).toByteString();
    }

    /**
     * The number in an {@link #ordinalPosition}; 0 for anything else (a digest-checked cookie holds what this
     * server made for the same request, so that is a position made before the sort control was usable).
     */
    static long ordinal(ByteString position) {
        if (position.length() != 9 || position.byteAt(0) != 's') {
            return 0;
        }
        return Math.max(0, position.subSequence(1, 9).toByteString().toLong());
    }

    int pageSize() {
        return pageSize;
    }

    /** The first page's start: {@code null}; else where the cookie says the last one ended. */
    Resume resume(ByteString cookie) throws InvalidCookie {
        if (cookie == null || cookie.isEmpty()) {
            return null;
        }
        if (cookie.length() < 1 + DIGEST + 4 || cookie.byteAt(0) != VERSION) {
            throw new InvalidCookie();
        }
        byte[] bytes = cookie.toByteArray();
        byte[] payload = Arrays.copyOfRange(bytes, 1 + DIGEST, bytes.length);
        if (!MessageDigest.isEqual(Arrays.copyOfRange(bytes, 1, 1 + DIGEST), digest(payload))) {
            throw new InvalidCookie();
        }
        int context = ByteString.wrap(payload, 0, 4).toInt();
        if (context < 0) {
            throw new InvalidCookie();
        }
        return new Resume(context, ByteString.wrap(payload, 4, payload.length - 4));
    }

    /** The response control: a cookie for the page after {@code end}, or the empty cookie at the end. */
    Control response(Resume end) {
        if (end == null) {
            return SimplePagedResultsControl.newControl(false, 0, ByteString.empty());
        }
        byte[] payload = new ByteStringBuilder().appendInt(end.context()).appendBytes(end.position()).toByteArray();
        ByteString cookie = new ByteStringBuilder().appendByte(VERSION).appendBytes(digest(payload))
                .appendBytes(payload).toByteString();
        return SimplePagedResultsControl.newControl(false, 0, cookie);
    }

    private byte[] digest(byte[] payload) {
        byte[] both = Arrays.copyOf(requestDigest, requestDigest.length + payload.length);
        System.arraycopy(payload, 0, both, requestDigest.length, payload.length);
        return Arrays.copyOf(sha256(both), DIGEST);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JDK has SHA-256", e);
        }
    }

    /** A cookie this server did not make for this request. */
    static final class InvalidCookie extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidCookie() {
            super("The paged results cookie is not valid for this search: start the paged search again", null,
                    false, false);
        }
    }
}
