package io.bindfirst.server.pwd;

import static org.testng.Assert.assertNotNull;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.testng.annotations.Test;

public class PasswordValidatorTest {
    private static final DN LENGTH = DN.valueOf("cn=Length,cn=Password Validators,cn=config");
    private static final DN SETS = DN.valueOf("cn=Sets,cn=Password Validators,cn=config");
    private static final List<PasswordValidator.CharacterSets.CharacterSet> LOWER_UPPER_DIGIT = List.of(
            new PasswordValidator.CharacterSets.CharacterSet(1, "abcdefghijklmnopqrstuvwxyz"),
            new PasswordValidator.CharacterSets.CharacterSet(1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
            new PasswordValidator.CharacterSets.CharacterSet(2, "0123456789"));

    @Test
    public void lengthCountsCharactersNotBytes() {
        PasswordValidator v = new PasswordValidator.Length(LENGTH, 4, 6);
        assertNotNull(v.refusal("abc"));
        assertNull(v.refusal("äöüß"), "four characters, eight bytes");
        assertNull(v.refusal("\uD83D\uDD11abc"), "a key emoji is one character");
        assertNotNull(v.refusal("abcdefg"));
        assertNull(new PasswordValidator.Length(LENGTH, 0, 0).refusal("x".repeat(10_000)), "0 = no maximum");
    }

    @Test
    public void everySetOrAtLeastSomeOfThem() {
        PasswordValidator all = new PasswordValidator.CharacterSets(SETS, LOWER_UPPER_DIGIT, true, 0);
        assertNull(all.refusal("aB12"));
        assertNotNull(all.refusal("aB1"), "two digits are needed");
        String why = all.refusal("abcd12");
        assertTrue(why.contains(SETS.toString()) && !why.contains("abcd12"), why);
        PasswordValidator two = new PasswordValidator.CharacterSets(SETS, LOWER_UPPER_DIGIT, true, 2);
        assertNull(two.refusal("abC"));
        assertNotNull(two.refusal("abc"));
    }

    @Test
    public void unclassifiedCharactersOnlyWhenAllowed() {
        assertNull(new PasswordValidator.CharacterSets(SETS, LOWER_UPPER_DIGIT, true, 0).refusal("aB12!"));
        assertNotNull(new PasswordValidator.CharacterSets(SETS, LOWER_UPPER_DIGIT, false, 0).refusal("aB12!"));
    }
}
