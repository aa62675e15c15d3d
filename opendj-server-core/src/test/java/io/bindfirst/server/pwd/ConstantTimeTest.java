package io.bindfirst.server.pwd;

import static org.testng.Assert.assertFalse;
import static org.testng.Assert.assertThrows;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

public class ConstantTimeTest {

    private static byte[] b(int... values) {
        byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    @Test
    public void equalContentsInDistinctArraysAreEqual() {
        assertTrue(ConstantTime.equals(b(1, 2, 3, 0xff), b(1, 2, 3, 0xff)));
        assertTrue(ConstantTime.equals(new byte[64], new byte[64]));
    }

    @Test
    public void sameArrayIsEqual() {
        byte[] a = b(9, 8, 7);
        assertTrue(ConstantTime.equals(a, a));
    }

    @Test
    public void aDifferenceAnywhereIsNotEqual() {
        byte[] base = b(10, 20, 30, 40, 50);
        for (int i = 0; i < base.length; i++) {
            byte[] other = base.clone();
            other[i] ^= 0x01;
            assertFalse(ConstantTime.equals(base, other), "difference at " + i);
            assertFalse(ConstantTime.equals(other, base), "difference at " + i + ", swapped");
        }
    }

    @Test
    public void everyByteValueIsDistinguished() {
        for (int x = 0; x < 256; x++) {
            for (int y = 0; y < 256; y++) {
                if (ConstantTime.equals(b(7, x), b(7, y)) != (x == y)) {
                    throw new AssertionError("wrong answer for " + x + " vs " + y);
                }
            }
        }
    }

    @Test
    public void differentLengthsAreNotEqual() {
        assertFalse(ConstantTime.equals(b(1, 2, 3), b(1, 2, 3, 4)));
        assertFalse(ConstantTime.equals(b(1, 2, 3, 4), b(1, 2, 3)));
        // A longer array whose extra bytes are zero must not pass for the shorter one.
        assertFalse(ConstantTime.equals(b(1, 2), b(1, 2, 0)));
        assertFalse(ConstantTime.equals(b(1, 2, 0), b(1, 2)));
        // Nor one that repeats the first byte (JDK 17 reads b[0] once past the end of b).
        assertFalse(ConstantTime.equals(b(5, 5, 5), b(5)));
        assertFalse(ConstantTime.equals(b(5), b(5, 5, 5)));
    }

    @Test
    public void emptyArrays() {
        assertTrue(ConstantTime.equals(new byte[0], new byte[0]));
        assertFalse(ConstantTime.equals(new byte[0], b(0)));
        assertFalse(ConstantTime.equals(b(0), new byte[0]));
    }

    @Test
    public void nullNeverMatches() {
        assertFalse(ConstantTime.equals(null, b(1)));
        assertFalse(ConstantTime.equals(b(1), null));
        assertFalse(ConstantTime.equals(null, null));
        assertFalse(ConstantTime.equals(null, new byte[0]));
    }

    @Test
    public void rangesCompareOnlyTheirBytes() {
        byte[] a = b(9, 1, 2, 3, 9);
        byte[] b = b(1, 2, 3, 7, 7, 7);
        assertTrue(ConstantTime.equals(a, 1, b, 0, 3));
        assertTrue(ConstantTime.equals(a, 0, b, 0, 0));
        assertFalse(ConstantTime.equals(a, 1, b, 0, 4)); // the fourth byte differs
        assertFalse(ConstantTime.equals(a, 0, b, 0, 3));
        for (int i = 0; i < 3; i++) {
            byte[] c = b.clone();
            c[i] ^= (byte) 0x80; // a difference in any place, even in the high bit, is seen
            assertFalse(ConstantTime.equals(a, 1, c, 0, 3), "byte " + i);
        }
    }

    @Test
    public void rangesOutsideTheirArraysAreRefused() {
        assertThrows(IndexOutOfBoundsException.class, () -> ConstantTime.equals(b(1, 2), 1, b(1, 2), 0, 2));
        assertThrows(IndexOutOfBoundsException.class, () -> ConstantTime.equals(b(1, 2), 0, b(1, 2), -1, 1));
    }
}
