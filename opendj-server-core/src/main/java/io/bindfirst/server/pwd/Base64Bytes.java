package io.bindfirst.server.pwd;

import java.util.Arrays;

import org.forgerock.opendj.ldap.ByteSequence;

/**
 * Standard base64 (RFC 4648 section 4) decoded from part of a {@link ByteSequence} into an array the caller
 * keeps, so that checking a salted hash on every bind allocates nothing. {@link java.util.Base64} decodes only
 * whole arrays or strings into new arrays; what this accepts and what it yields are exactly what
 * {@code Base64.getDecoder().decode} accepts and yields (padding optional, nothing after it, no other
 * characters), which {@code Base64BytesTest} checks against it over many generated values.
 */
final class Base64Bytes {

    /** Where a character is not of the alphabet. */
    private static final int NOT_BASE64 = -1;
    /** The padding character's mark in {@link #VALUES}. */
    private static final int PAD = -2;
    /** The 6-bit value of each byte that is a base64 character; {@link #NOT_BASE64} or {@link #PAD} else. */
    private static final int[] VALUES = values();

    private Base64Bytes() {
    }

    private static int[] values() {
        int[] values = new int[256];
        Arrays.fill(values, NOT_BASE64);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            values[alphabet.charAt(i)] = i;
        }
        values['='] = PAD;
        return values;
    }

    /** The most bytes {@link #decode} can write for {@code encodedLength} characters. */
    static int maxDecodedLength(int encodedLength) {
        return (encodedLength + 3) / 4 * 3;
    }

    /**
     * Decodes {@code src[from, to)} into {@code dst} from index 0.
     *
     * @param dst at least {@link #maxDecodedLength maxDecodedLength(to - from)} bytes
     * @return the number of bytes decoded, or -1 if those characters are not valid base64
     */
    static int decode(ByteSequence src, int from, int to, byte[] dst) {
        int out = 0;
        int bits = 0;
        int shift = 18; // where the next 6 bits go in the current group of 3 bytes
        int i = from;
        while (i < to) {
            int value = VALUES[src.byteAt(i++) & 0xff];
            if (value == PAD) {
                // "=" after 2 characters must be followed by a second "="; after 0 or 3 it ends the data, and
                // after 1 the group is short (refused below).
                if (shift == 18 || shift == 6 && (i == to || src.byteAt(i++) != '=')) {
                    return -1;
                }
                break;
            }
            if (value == NOT_BASE64) {
                return -1;
            }
            bits |= value << shift;
            shift -= 6;
            if (shift < 0) {
                dst[out++] = (byte) (bits >> 16);
                dst[out++] = (byte) (bits >> 8);
                dst[out++] = (byte) bits;
                shift = 18;
                bits = 0;
            }
        }
        if (shift == 6) {
            dst[out++] = (byte) (bits >> 16);
        } else if (shift == 0) {
            dst[out++] = (byte) (bits >> 16);
            dst[out++] = (byte) (bits >> 8);
        } else if (shift == 12) {
            return -1; // one character alone cannot make a byte
        }
        return i == to ? out : -1; // nothing may follow the padding
    }
}
