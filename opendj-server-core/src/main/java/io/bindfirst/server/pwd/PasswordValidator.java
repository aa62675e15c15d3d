package io.bindfirst.server.pwd;

import java.util.List;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;

/**
 * A rule a new password must follow (OpenDJ's password validators, entries under
 * {@code cn=Password Validators,cn=config} that a password policy names in {@code ds-cfg-password-validator}).
 * Immutable. A refusal says what the rule wants, never what the password was.
 */
public sealed interface PasswordValidator permits PasswordValidator.Length, PasswordValidator.CharacterSets {

    /** The validator's configuration entry. */
    DN dn();

    /** Why {@code clear} is refused, for the client; {@code null} if it passes. */
    String refusal(String clear);

    /** The draft-behera error a refusal by this validator reports in the Password Policy response control. */
    PasswordPolicyErrorType errorType();

    /**
     * {@code ds-cfg-length-based-password-validator}: a length in characters (code points).
     *
     * @param min {@code ds-cfg-min-password-length}; 0 = none
     * @param max {@code ds-cfg-max-password-length}; 0 = none
     */
    record Length(DN dn, int min, int max) implements PasswordValidator {
        @Override
        public PasswordPolicyErrorType errorType() {
            return PasswordPolicyErrorType.PASSWORD_TOO_SHORT;
        }

        @Override
        public String refusal(String clear) {
            int n = clear.codePointCount(0, clear.length());
            if (n < min) {
                return "The new password is too short: at least " + min + " characters (" + dn + ")";
            }
            if (max > 0 && n > max) {
                return "The new password is too long: at most " + max + " characters (" + dn + ")";
            }
            return null;
        }
    }

    /**
     * {@code ds-cfg-character-set-password-validator}: characters from given sets.
     *
     * @param sets {@code ds-cfg-character-set} values, {@code N:characters}: at least N of those characters
     * @param allowUnclassified {@code ds-cfg-allow-unclassified-characters}: whether characters in no set may occur
     * @param minSets {@code ds-cfg-min-character-sets}: how many sets must be satisfied; 0 = all of them
     */
    record CharacterSets(DN dn, List<CharacterSet> sets, boolean allowUnclassified, int minSets)
            implements PasswordValidator {

        /** At least {@code count} characters of {@code characters}. */
        public record CharacterSet(int count, String characters) {
        }

        public CharacterSets {
            sets = List.copyOf(sets);
        }

        @Override
        public PasswordPolicyErrorType errorType() {
            return PasswordPolicyErrorType.INSUFFICIENT_PASSWORD_QUALITY;
        }

        @Override
        public String refusal(String clear) {
            int satisfied = 0;
            for (CharacterSet set : sets) {
                long n = clear.codePoints().filter(c -> set.characters().indexOf(c) >= 0).count();
                if (n >= set.count()) {
                    satisfied++;
                }
            }
            int needed = minSets == 0 ? sets.size() : minSets;
            if (satisfied < needed) {
                return "The new password needs characters from " + (minSets == 0 ? "each" : "at least " + minSets)
                        + " of the character sets of " + dn;
            }
            if (!allowUnclassified && clear.codePoints().anyMatch(c -> sets.stream()
                    .noneMatch(s -> s.characters().indexOf(c) >= 0))) {
                return "The new password has characters outside the character sets of " + dn;
            }
            return null;
        }
    }
}
