package io.bindfirst.server.stats;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.forgerock.opendj.ldap.ResultCode;

import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordSchemes;

/**
 * Operations completed since the start, by type and result code: counted once per operation where it finishes
 * ({@code Operation.finish}), with the binds' times ({@link BindTimes}).
 *
 * <p>The count costs the bind path one uncontended {@link LongAdder} add, whichever thread finishes it, and no
 * look-up: every (type, result) pair has its adder from the start, found by arithmetic on the type's ordinal
 * and the result code's number. The result codes of RFC 4511 and of the cancel and assertion extensions each
 * have their own; any other number (a vendor's) counts as {@code other}, with code 80.
 */
public final class OperationCounts {
    /**
     * The result codes counted apart, each with its name in RFC 4511 (RFC 3909 for the cancel codes, RFC 4528 for
     * assertionFailed, RFC 4370 for authorizationDenied); every other number counts as {@code other}.
     */
    private static final List<Map.Entry<ResultCode, String>> COUNTED = List.of(
            Map.entry(ResultCode.SUCCESS, "success"),
            Map.entry(ResultCode.OPERATIONS_ERROR, "operationsError"),
            Map.entry(ResultCode.PROTOCOL_ERROR, "protocolError"),
            Map.entry(ResultCode.TIME_LIMIT_EXCEEDED, "timeLimitExceeded"),
            Map.entry(ResultCode.SIZE_LIMIT_EXCEEDED, "sizeLimitExceeded"),
            Map.entry(ResultCode.COMPARE_FALSE, "compareFalse"),
            Map.entry(ResultCode.COMPARE_TRUE, "compareTrue"),
            Map.entry(ResultCode.AUTH_METHOD_NOT_SUPPORTED, "authMethodNotSupported"),
            Map.entry(ResultCode.STRONG_AUTH_REQUIRED, "strongerAuthRequired"),
            Map.entry(ResultCode.REFERRAL, "referral"),
            Map.entry(ResultCode.ADMIN_LIMIT_EXCEEDED, "adminLimitExceeded"),
            Map.entry(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, "unavailableCriticalExtension"),
            Map.entry(ResultCode.CONFIDENTIALITY_REQUIRED, "confidentialityRequired"),
            Map.entry(ResultCode.SASL_BIND_IN_PROGRESS, "saslBindInProgress"),
            Map.entry(ResultCode.NO_SUCH_ATTRIBUTE, "noSuchAttribute"),
            Map.entry(ResultCode.UNDEFINED_ATTRIBUTE_TYPE, "undefinedAttributeType"),
            Map.entry(ResultCode.INAPPROPRIATE_MATCHING, "inappropriateMatching"),
            Map.entry(ResultCode.CONSTRAINT_VIOLATION, "constraintViolation"),
            Map.entry(ResultCode.ATTRIBUTE_OR_VALUE_EXISTS, "attributeOrValueExists"),
            Map.entry(ResultCode.INVALID_ATTRIBUTE_SYNTAX, "invalidAttributeSyntax"),
            Map.entry(ResultCode.NO_SUCH_OBJECT, "noSuchObject"),
            Map.entry(ResultCode.ALIAS_PROBLEM, "aliasProblem"),
            Map.entry(ResultCode.INVALID_DN_SYNTAX, "invalidDNSyntax"),
            Map.entry(ResultCode.ALIAS_DEREFERENCING_PROBLEM, "aliasDereferencingProblem"),
            Map.entry(ResultCode.INAPPROPRIATE_AUTHENTICATION, "inappropriateAuthentication"),
            Map.entry(ResultCode.INVALID_CREDENTIALS, "invalidCredentials"),
            Map.entry(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, "insufficientAccessRights"),
            Map.entry(ResultCode.BUSY, "busy"),
            Map.entry(ResultCode.UNAVAILABLE, "unavailable"),
            Map.entry(ResultCode.UNWILLING_TO_PERFORM, "unwillingToPerform"),
            Map.entry(ResultCode.LOOP_DETECT, "loopDetect"),
            Map.entry(ResultCode.NAMING_VIOLATION, "namingViolation"),
            Map.entry(ResultCode.OBJECTCLASS_VIOLATION, "objectClassViolation"),
            Map.entry(ResultCode.NOT_ALLOWED_ON_NONLEAF, "notAllowedOnNonLeaf"),
            Map.entry(ResultCode.NOT_ALLOWED_ON_RDN, "notAllowedOnRDN"),
            Map.entry(ResultCode.ENTRY_ALREADY_EXISTS, "entryAlreadyExists"),
            Map.entry(ResultCode.OBJECTCLASS_MODS_PROHIBITED, "objectClassModsProhibited"),
            Map.entry(ResultCode.AFFECTS_MULTIPLE_DSAS, "affectsMultipleDSAs"),
            Map.entry(ResultCode.OTHER, "other"),
            Map.entry(ResultCode.CANCELLED, "canceled"),
            Map.entry(ResultCode.NO_SUCH_OPERATION, "noSuchOperation"),
            Map.entry(ResultCode.TOO_LATE, "tooLate"),
            Map.entry(ResultCode.CANNOT_CANCEL, "cannotCancel"),
            Map.entry(ResultCode.ASSERTION_FAILED, "assertionFailed"),
            Map.entry(ResultCode.AUTHORIZATION_DENIED, "authorizationDenied"));
    private static final int RESULTS = COUNTED.size();
    /** A result code's number to its place in {@link #COUNTED}; the numbers beyond it are all {@code other}. */
    private static final int[] PLACE_OF_CODE = placeOfCode();
    private static final int OTHER_PLACE = placeOf(ResultCode.OTHER);
    private static final int SUCCESS_PLACE = placeOf(ResultCode.SUCCESS);

    private static final int TYPES = OperationType.values().length;

    /** By type ordinal * {@link #RESULTS} + the result's place. */
    private final LongAdder[] completed = new LongAdder[TYPES * RESULTS];
    private final BindTimes bindTimes = new BindTimes(PasswordSchemes.schemeLabels());

    public OperationCounts() {
        for (int i = 0; i < completed.length; i++) {
            completed[i] = new LongAdder();
        }
    }

    private static int[] placeOfCode() {
        int highest = 0;
        for (Map.Entry<ResultCode, String> c : COUNTED) {
            highest = Math.max(highest, c.getKey().intValue());
        }
        int[] out = new int[highest + 1];
        Arrays.fill(out, placeOf(ResultCode.OTHER)); // OTHER_PLACE is not set yet
        for (int i = 0; i < COUNTED.size(); i++) {
            out[COUNTED.get(i).getKey().intValue()] = i;
        }
        return out;
    }

    /** The place of a code counted apart in {@link #COUNTED}. */
    private static int placeOf(ResultCode code) {
        for (int i = 0; i < COUNTED.size(); i++) {
            if (COUNTED.get(i).getKey().equals(code)) {
                return i;
            }
        }
        throw new IllegalArgumentException(code + " is not counted apart");
    }

    private static int place(ResultCode result) {
        int code = result.intValue();
        return code >= 0 && code < PLACE_OF_CODE.length ? PLACE_OF_CODE[code] : OTHER_PLACE;
    }

    /** One operation of this type finished with this result. */
    public void completed(OperationType type, ResultCode result) {
        completed[type.ordinal() * RESULTS + place(result)].increment();
    }

    /** Where binds record their times. */
    public BindTimes bindTimes() {
        return bindTimes;
    }

    /** Operations of this type completed since the start, whatever their result. */
    public long count(OperationType type) {
        long sum = 0;
        for (int r = 0; r < RESULTS; r++) {
            sum += completed[type.ordinal() * RESULTS + r].sum();
        }
        return sum;
    }

    /**
     * Operations of this type completed with this result since the start; a result code counted as
     * {@code other} ({@link #resultName}) answers the {@code other} count.
     */
    public long count(OperationType type, ResultCode result) {
        return completed[type.ordinal() * RESULTS + place(result)].sum();
    }

    /** Operations of every type completed since the start. */
    public long total() {
        long sum = 0;
        for (LongAdder a : completed) {
            sum += a.sum();
        }
        return sum;
    }

    /**
     * Calls {@code out} with each (type, result name, count) whose count is above zero, and with every type's
     * success count even at zero (so a rate over it starts with the server), by type then result; each once.
     */
    public void forEachCounted(Counted out) {
        for (OperationType t : OperationType.values()) {
            for (int r = 0; r < RESULTS; r++) {
                long n = completed[t.ordinal() * RESULTS + r].sum();
                if (n > 0 || r == SUCCESS_PLACE) {
                    out.count(t, COUNTED.get(r).getValue(), n);
                }
            }
        }
    }

    /** The name a result code is counted under: its RFC name, or {@code other} for a number not counted apart. */
    public static String resultName(ResultCode result) {
        return COUNTED.get(place(result)).getValue();
    }

    /** What {@link #forEachCounted} calls. */
    @FunctionalInterface
    public interface Counted {
        void count(OperationType type, String result, long count);
    }
}
