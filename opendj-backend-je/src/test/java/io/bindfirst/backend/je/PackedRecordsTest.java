package io.bindfirst.backend.je;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.forgerock.opendj.ldap.ByteString;
import org.testng.annotations.Test;

/**
 * The bulk load's sort of index records must give the index database's order (key bytes unsigned, then id) for
 * any keys: sharing long prefixes or none, ending where others go on, holding 0x00 and 0xff, equal with other ids.
 */
public class PackedRecordsTest {
    private record Rec(byte[] key, long id) {
    }

    private static final Comparator<Rec> ORDER = (a, b) -> {
        int c = Arrays.compareUnsigned(a.key, b.key);
        return c != 0 ? c : Long.compareUnsigned(a.id, b.id);
    };

    @Test
    public void randomRecordsSortAsTheIndexOrdersThem() {
        Random random = new Random(20261128);
        for (int round = 0; round < 200; round++) {
            byte[] shared = new byte[random.nextInt(12)];
            random.nextBytes(shared);
            byte[] alphabet = {0x00, 0x01, 0x30, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};
            List<Rec> records = new ArrayList<>();
            int count = 1 + random.nextInt(300);
            for (int i = 0; i < count; i++) {
                byte[] key = Arrays.copyOf(shared, shared.length + random.nextInt(14));
                for (int b = shared.length; b < key.length; b++) {
                    key[b] = alphabet[random.nextInt(alphabet.length)];
                }
                if (!records.isEmpty() && random.nextInt(4) == 0) { // the same key again, or one it begins
                    byte[] earlier = records.get(random.nextInt(records.size())).key;
                    key = Arrays.copyOf(earlier, Math.max(0, earlier.length - random.nextInt(3)));
                }
                records.add(new Rec(key, random.nextInt(1_000) + (random.nextBoolean() ? 0 : 1L << 40)));
            }
            PackedRecords packed = new PackedRecords();
            for (Rec r : records) {
                packed.add(ByteString.wrap(r.key), r.id);
            }
            packed.sort();
            List<Rec> expected = new ArrayList<>(records);
            expected.sort(ORDER);
            assertEquals(sorted(packed), expected.stream().map(PackedRecordsTest::text).toList(), "round " + round);
        }
    }

    @Test
    public void keysSharingMoreThanEightBytesAfterTheirCommonPrefixStillSortByTheRest() {
        PackedRecords packed = new PackedRecords();
        String[] keys = {"user.123456789b", "user.123456789a", "user.12345678", "user.2", "user.123456789a"};
        for (int i = 0; i < keys.length; i++) {
            packed.add(ByteString.valueOfUtf8(keys[i]), 10 - i);
        }
        packed.sort();
        assertEquals(sorted(packed), List.of("user.12345678/8", "user.123456789a/6", "user.123456789a/9",
                "user.123456789b/10", "user.2/7").stream().map(PackedRecordsTest::hex).toList());
    }

    private static List<String> sorted(PackedRecords packed) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < packed.size(); i++) {
            int at = packed.offset(i);
            byte[] key = Arrays.copyOfRange(packed.data(), at + 4, at + 4 + packed.keyLength(at));
            out.add(text(new Rec(key, packed.id(at))));
        }
        return out;
    }

    private static String text(Rec r) {
        return ByteString.wrap(r.key).toHexString() + "/" + r.id;
    }

    private static String hex(String keyAndId) {
        int slash = keyAndId.indexOf('/');
        return ByteString.valueOfUtf8(keyAndId.substring(0, slash)).toHexString() + keyAndId.substring(slash);
    }
}
