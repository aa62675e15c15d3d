package io.bindfirst.server.monitor;

import java.util.List;
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
    /** The result codes counted apart, by their RFC names; every other number counts as {@code other}. */
    private static final List<ResultCode> COUNTED = List.of(ResultCode.SUCCESS, ResultCode.OPERATIONS_ERROR,
            ResultCode.PROTOCOL_ERROR, ResultCode.TIME_LIMIT_EXCEEDED, ResultCode.SIZE_LIMIT_EXCEEDED,
            ResultCode.COMPARE_FALSE, ResultCode.COMPARE_TRUE, ResultCode.AUTH_METHOD_NOT_SUPPORTED,
            ResultCode.STRONG_AUTH_REQUIRED, ResultCode.REFERRAL, ResultCode.ADMIN_LIMIT_EXCEEDED,
            ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, ResultCode.CONFIDENTIALITY_REQUIRED,
            ResultCode.SASL_BIND_IN_PROGRESS, ResultCode.NO_SUCH_ATTRIBUTE, ResultCode.UNDEFINED_ATTRIBUTE_TYPE,
            ResultCode.INAPPROPRIATE_MATCHING, ResultCode.CONSTRAINT_VIOLATION, ResultCode.ATTRIBUTE_OR_VALUE_EXISTS,
            ResultCode.INVALID_ATTRIBUTE_SYNTAX, ResultCode.NO_SUCH_OBJECT, ResultCode.ALIAS_PROBLEM,
            ResultCode.INVALID_DN_SYNTAX, ResultCode.ALIAS_DEREFERENCING_PROBLEM,
            ResultCode.INAPPROPRIATE_AUTHENTICATION, ResultCode.INVALID_CREDENTIALS,
            ResultCode.INSUFFICIENT_ACCESS_RIGHTS, ResultCode.BUSY, ResultCode.UNAVAILABLE,
            ResultCode.UNWILLING_TO_PERFORM, ResultCode.LOOP_DETECT, ResultCode.NAMING_VIOLATION,
            ResultCode.OBJECTCLASS_VIOLATION, ResultCode.NOT_ALLOWED_ON_NONLEAF, ResultCode.NOT_ALLOWED_ON_RDN,
            ResultCode.ENTRY_ALREADY_EXISTS, ResultCode.OBJECTCLASS_MODS_PROHIBITED,
            ResultCode.AFFECTS_MULTIPLE_DSAS, ResultCode.OTHER, ResultCode.CANCELLED, ResultCode.NO_SUCH_OPERATION,
            ResultCode.TOO_LATE, ResultCode.CANNOT_CANCEL, ResultCode.ASSERTION_FAILED,
            ResultCode.AUTHORIZATION_DENIED);
    /** RFC 4511's names (and RFC 3909's, 4528's, 4370's), in the order of {@link #COUNTED}. */
    private static final List<String> NAMES = List.of("success", "operationsError", "protocolError",
            "timeLimitExceeded", "sizeLimitExceeded", "compareFalse", "compareTrue", "authMethodNotSupported",
            "strongerAuthRequired", "referral", "adminLimitExceeded", "unavailableCriticalExtension",
            "confidentialityRequired", "saslBindInProgress", "noSuchAttribute", "undefinedAttributeType",
            "inappropriateMatching", "constraintViolation", "attributeOrValueExists", "invalidAttributeSyntax",
            "noSuchObject", "aliasProblem", "invalidDNSyntax", "aliasDereferencingProblem",
            "inappropriateAuthentication", "invalidCredentials", "insufficientAccessRights", "busy", "unavailable",
            "unwillingToPerform", "loopDetect", "namingViolation", "objectClassViolation", "notAllowedOnNonLeaf",
            "notAllowedOnRDN", "entryAlreadyExists", "objectClassModsProhibited", "affectsMultipleDSAs", "other",
            "canceled", "noSuchOperation", "tooLate", "cannotCancel", "assertionFailed", "authorizationDenied");
    private static final int RESULTS = COUNTED.size();
    /** A result code's number to its place in {@link #COUNTED}; the numbers beyond it are all {@code other}. */
    private static final int[] PLACE_OF_CODE = placeOfCode();
    private static final int OTHER_PLACE = COUNTED.indexOf(ResultCode.OTHER);
    private static final int SUCCESS_PLACE = COUNTED.indexOf(ResultCode.SUCCESS);

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
        for (ResultCode c : COUNTED) {
            highest = Math.max(highest, c.intValue());
        }
        int[] out = new int[highest + 1];
        java.util.Arrays.fill(out, COUNTED.indexOf(ResultCode.OTHER)); // OTHER_PLACE is not set yet
        for (int i = 0; i < COUNTED.size(); i++) {
            out[COUNTED.get(i).intValue()] = i;
        }
        return out;
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
                    out.count(t, NAMES.get(r), n);
                }
            }
        }
    }

    /** The name a result code is counted under: its RFC name, or {@code other} for a number not counted apart. */
    public static String resultName(ResultCode result) {
        return NAMES.get(place(result));
    }

    /** What {@link #forEachCounted} calls. */
    @FunctionalInterface
    public interface Counted {
        void count(OperationType type, String result, long count);
    }
}
