package io.bindfirst.server.core;

import java.io.IOException;
import java.util.List;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.ASN1Reader;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.AuthorizationIdentityResponseControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.PasswordPolicyErrorType;
import org.forgerock.opendj.ldap.controls.PasswordPolicyRequestControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyResponseControl;
import org.forgerock.opendj.ldap.controls.PasswordPolicyWarningType;
import org.forgerock.opendj.ldap.requests.GenericBindRequest;
import org.forgerock.opendj.ldap.responses.BindResult;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.bindfirst.server.auth.Account;
import io.bindfirst.server.auth.Accounts;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.EntryChange;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.pwd.PasswordAttribute;
import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * A bind (RFC 4511 4.2): simple (RFC 4513 5.1) here, SASL PLAIN in {@link SaslPlain} and SASL EXTERNAL in
 * {@link SaslExternal}, which use the steps this class gives them (the password check, the account's state, the
 * race with writes, the success). A simple bind's phases, in order: end the previous authentication,
 * check the request, resolve the DN to a root user or an entry, verify the password with its storage
 * scheme, then publish the new {@link AuthenticationInfo} and register it.
 *
 * <p>A wrong password, an unknown DN, an entry without a password and a DN outside every backend all
 * give the same {@code invalidCredentials} with the same (empty) message, so a client cannot tell which
 * users exist.
 */
public class BindOperation extends Operation {
    /** Where a lock that could not be written is said: the accounts' logger, where the locks written are. */
    private static final Logger LOCKS = LoggerFactory.getLogger(Accounts.class);
    /** SASL EXTERNAL (RFC 4422 appendix A): the client certificate of the TLS layer. */
    public static final String SASL_EXTERNAL = "EXTERNAL";
    /** SASL PLAIN (RFC 4616): a user name and its password. */
    public static final String SASL_PLAIN = "PLAIN";

    private final int version;
    private final GenericBindRequest request;
    private boolean wantsAuthzId;
    /** The client sent the Password Policy request control: a refused locked account says so in the response. */
    private boolean wantsPolicyState;
    private DN bindDN;
    /** A simple bind's name whose DN was parsed here: kept for the next binds if this one succeeds (BindDns). */
    private String nameToKeep;
    private AuthenticationInfo outcome = AuthenticationInfo.ANONYMOUS;
    /** The storage scheme of the password value that matched (its number), for the bind's time; none yet. */
    private int scheme = PasswordSchemes.NO_MATCH;
    /** The SASL PLAIN bind this is, or {@code null}. */
    private SaslPlain plain;

    public BindOperation(ServerContext server, Session session, int messageId, int version,
                         GenericBindRequest request) {
        super(server, session, messageId);
        this.version = version;
        this.request = request;
    }

    @Override
    protected boolean allowedBeforePasswordChange() {
        return true;
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    @Override
    protected boolean understands(String oid) {
        return VirtualEntries.OID_AUTHZ_ID_REQUEST.equals(oid) || PasswordPolicyRequestControl.OID.equals(oid)
                || super.understands(oid);
    }

    /** RFC 4511 4.11: a bind cannot be abandoned, so it skips the connection's in-flight map. */
    @Override
    public boolean abandonable() {
        return false;
    }

    /**
     * A simple bind may: on the transport thread it parses its DN and looks for the entry in the backend's
     * memory; a root user, an entry not in memory, a password stored with more than one hash's work, or a
     * write that raced the bind move it to the workers.
     */
    @Override
    public boolean startsInline() {
        return true;
    }

    /** RFC 4513 4: whatever its outcome, a bind ends the previous authentication. */
    @Override
    protected void prepare() {
        session.resetAuthentication();
    }

    @Override
    protected Result execute() {
        if (!request.getControls().isEmpty()) { // most binds carry none: no iterator for them
            for (Control c : request.getControls()) {
                wantsAuthzId |= VirtualEntries.OID_AUTHZ_ID_REQUEST.equals(c.getOID());
                wantsPolicyState |= PasswordPolicyRequestControl.OID.equals(c.getOID());
            }
        }
        if (version != 3) {
            return errorResult(ResultCode.PROTOCOL_ERROR, "Only LDAP version 3 is supported");
        }
        if (request.getAuthenticationType() == LDAP.TYPE_AUTHENTICATION_SASL) {
            return saslBind();
        }
        if (request.getAuthenticationType() != LDAP.TYPE_AUTHENTICATION_SIMPLE) {
            return errorResult(ResultCode.AUTH_METHOD_NOT_SUPPORTED,
                    "Only simple authentication and SASL EXTERNAL and PLAIN are supported");
        }
        ByteString password = ByteString.wrap(request.getAuthenticationValue());
        String name = request.getName();
        if (name.isEmpty()) {
            if (password.isEmpty()) {
                return success(AuthenticationInfo.ANONYMOUS);
            }
            return invalidCredentials();
        }
        if (password.isEmpty()) {
            // RFC 4513 5.1.2: an unauthenticated bind must not look like a successful login.
            return errorResult(ResultCode.UNWILLING_TO_PERFORM,
                    "Unauthenticated binds (a DN with an empty password) are not allowed");
        }
        if (!passwordMayTravelInClear() && session.securityStrength() == 0) {
            // RFC 4513 5.1.3 / 6.3.1: refused whether or not the password is right, so this says nothing about it.
            return passwordNeedsTls("A simple bind");
        }
        DN dn = server.bindDns().kept(name);
        if (dn == null) {
            try {
                dn = server.bindDns().parse(name);
            } catch (LocalizedIllegalArgumentException e) {
                return errorResult(ResultCode.INVALID_DN_SYNTAX, "The bind DN is not a valid DN");
            }
            nameToKeep = name;
        }
        return passwordBind(dn, password);
    }

    Result passwordNeedsTls(String what) {
        return errorResult(ResultCode.CONFIDENTIALITY_REQUIRED, what + " with a password needs a "
                + "connection protected by TLS from this client: use LDAPS or StartTLS "
                + "(ds-cfg-require-secure-password-binds)");
    }

    /**
     * The password check of a simple bind and of SASL PLAIN, once the DN is known: a root user, or an entry under
     * its account's password policy; inline when the entry is in memory and its check is cheap.
     */
    Result passwordBind(DN dn, ByteString password) {
        bindDN = dn;
        ServerConfig.RootUser root = server.rootUsers().find(dn);
        if (root != null) {
            // A root password may be stored with a costly scheme; root binds are rare: never inline.
            return onWorkers(() -> {
                scheme = server.rootUsers().matchingScheme(root, password);
                return scheme != PasswordSchemes.NO_MATCH
                        ? authenticated(AuthenticationInfo.rootUser(root.dn())) : invalidCredentials();
            });
        }
        Backend backend = server.backends().backendFor(dn);
        if (backend == null || server.backends().isConfigBackend(backend)) {
            return invalidCredentials();
        }
        Result pre = preOperation();
        if (pre != null) {
            return pre;
        }
        if (inline()) {
            long epoch = server.writeEpoch().current();
            Entry cached = backend.cachedEntry(dn, server.bindAttributes());
            if (cached != null) {
                Account account = server.accounts().account(cached);
                Result refused = refusal(account);
                if (refused != null) {
                    return refused;
                }
                // One hash's work: the stored password is one, or the verified-credential cache proved this one.
                int quick = server.passwordAttribute().matchingSchemeWithoutDeriving(cached, password);
                if (quick != PasswordAttribute.UNDECIDED) {
                    return verified(backend, dn, account, password, quick, epoch);
                }
            }
        }
        return onWorkers(() -> readAndCheck(backend, dn, password));
    }

    /** SASL (RFC 4513 5.2): PLAIN ({@link SaslPlain}) and EXTERNAL ({@link SaslExternal}), as configured. */
    private Result saslBind() {
        String mechanism;
        ByteString authzId = ByteString.empty();
        try {
            ASN1Reader reader = ASN1.getReader(request.getAuthenticationValue());
            mechanism = reader.readOctetStringAsString();
            if (reader.hasNextElement()) {
                authzId = reader.readOctetString();
            }
        } catch (IOException | RuntimeException e) { // DecodeException is an IOException
            return errorResult(ResultCode.PROTOCOL_ERROR, "The SASL credentials cannot be decoded");
        }
        if (SASL_PLAIN.equals(mechanism) && server.config().sasl().plainEnabled()) {
            plain = new SaslPlain(this);
            return plain.bind(authzId); // what follows the mechanism: for EXTERNAL an authzId, for PLAIN all
        }
        ServerConfig.Tls tls = server.config().tls();
        boolean externalEnabled = tls != null && tls.clientCertificates().requested();
        if (!SASL_EXTERNAL.equals(mechanism)) {
            // The mechanisms the root DSE lists (supportedSASLMechanisms), and no other.
            String enabled = externalEnabled && server.config().sasl().plainEnabled() ? "EXTERNAL and PLAIN are"
                    : externalEnabled ? "EXTERNAL is" : server.config().sasl().plainEnabled() ? "PLAIN is" : null;
            return errorResult(ResultCode.AUTH_METHOD_NOT_SUPPORTED, "SASL mechanism " + mechanism + " is not "
                    + "supported" + (enabled == null ? "; no SASL mechanism is enabled" : ": " + enabled));
        }
        return new SaslExternal(this, tls).bind(authzId.toString());
    }

    /** Whether {@code ds-cfg-require-secure-password-binds} lets this client send its password without TLS. */
    boolean passwordMayTravelInClear() {
        switch (server.config().securePasswordBinds()) {
            case NEVER:
                return true;
            case NON_LOOPBACK:
                return session.fromLoopback();
            default:
                return false;
        }
    }

    /** Reads the entry (which may block) and checks the password, on the slow lane if it is costly. */
    private Result readAndCheck(Backend backend, DN dn, ByteString password) {
        long epoch = server.writeEpoch().current();
        Entry entry;
        try {
            entry = backend.getEntry(dn, server.bindAttributes());
        } catch (BackendException e) {
            return errorResult(e.resultCode(), e.getMessage());
        }
        if (entry != null && server.passwordAttribute().workFactor(entry, password)
                >= server.config().workQueue().slowLanePasswordWorkFactor()) {
            // A costly stored password (PBKDF2 with many iterations) is checked on the slow lane, paced, so
            // that it cannot take the workers and the CPU that cheap binds need; unless the verified-credential
            // cache proved this password before (a wrong one never is: it still goes to the lane).
            return onSlowLane(() -> check(backend, dn, entry, password, epoch));
        }
        return check(backend, dn, entry, password, epoch);
    }

    /**
     * Checks the password and, if it matches, authenticates the connection, unless a write raced the bind.
     *
     * @param epoch the write epoch taken before {@code entry} was read
     */
    private Result check(Backend backend, DN dn, Entry entry, ByteString password, long epoch) {
        Account account = entry == null ? null : server.accounts().account(entry);
        Result refused = refusal(account);
        if (refused != null) {
            return refused;
        }
        return verified(backend, dn, account, password,
                server.passwordAttribute().matchingScheme(entry, password, server.slowLane().pacer()), epoch);
    }

    /**
     * invalidCredentials for a missing entry or an account that may not authenticate now; {@code null} to go on.
     * Before the password: a locked account's binds cost no hash and count no failure.
     */
    private Result refusal(Account account) {
        if (account == null) {
            return invalidCredentials();
        }
        return account.whyRefused() != null ? refused(account) : null;
    }

    /**
     * The outcome of a password check: a failure counted (and perhaps the lock), or the success.
     *
     * @param matchingScheme the number of the scheme whose value matched, or {@link PasswordSchemes#NO_MATCH}
     */
    private Result verified(Backend backend, DN dn, Account account, ByteString password, int matchingScheme,
                            long epoch) {
        scheme = matchingScheme;
        if (matchingScheme == PasswordSchemes.NO_MATCH) {
            if (account.failed()) {
                return onWorkers(() -> lock(backend, dn));
            }
            return invalidCredentials();
        }
        account.succeeded(backend, password);
        Accounts.PasswordAge age = account.passwordAge();
        if (age.expired()) {
            if (age.graceLoginsLeft() == 0) {
                // As a wrong password would answer, so an expired password does not confirm a right guess.
                return withPolicyError(invalidCredentials(), PasswordPolicyErrorType.PASSWORD_EXPIRED);
            }
            return onWorkers(() -> graceLogin(backend, dn, account.entry(), age.graceLoginsLeft() - 1));
        }
        AuthenticationInfo user = account.authenticationInfo();
        Result result = authenticated(user);
        if (result.getResultCode() != ResultCode.SUCCESS) {
            return result; // a PLAIN bind's authorization identity was refused
        }
        if (user.mustChangePassword() && wantsPolicyState) {
            result.addControl(PasswordPolicyResponseControl.newControl(PasswordPolicyErrorType.CHANGE_AFTER_RESET));
        } else if (age.secondsToExpiry() > 0 && wantsPolicyState) {
            result.addControl(PasswordPolicyResponseControl.newControl(
                    PasswordPolicyWarningType.TIME_BEFORE_EXPIRATION, (int) Math.min(Integer.MAX_VALUE,
                            age.secondsToExpiry())));
        }
        return unlessAWriteRaced(backend, dn, result, epoch);
    }

    /**
     * An expired password with grace logins left: this bind uses one (recorded in the entry before it answers,
     * so the count survives a restart) and succeeds, saying how many remain if asked.
     */
    private Result graceLogin(Backend backend, DN dn, Entry entry, int remaining) {
        long epoch = server.writeEpoch().current();
        try {
            EntryChange change = server.accounts().useGraceLogin(backend, dn);
            committed(change);
            entry = change.after();
        } catch (BackendException e) {
            return invalidCredentials(); // deleted meanwhile, or the backend failed
        }
        Result refused = refusal(server.accounts().account(entry)); // disabled or locked since the check
        if (refused != null) {
            return refused;
        }
        Result result = authenticated(server.accounts().authenticationInfo(entry));
        if (wantsPolicyState && result.getResultCode() == ResultCode.SUCCESS) {
            result.addControl(PasswordPolicyResponseControl.newControl(
                    PasswordPolicyWarningType.GRACE_LOGINS_REMAINING, remaining));
        }
        return unlessAWriteRaced(backend, dn, result, epoch + 1);
    }

    /**
     * This failure reached the account's lockout count: the lock is written (durable before the answer) and
     * committed as any write is, so the registry closes the account's connections before the answer. The answer
     * is a wrong password's, with accountLocked if asked.
     */
    private Result lock(Backend backend, DN dn) {
        try {
            committed(server.accounts().lock(backend, dn));
        } catch (BackendException e) {
            if (e.resultCode() != ResultCode.NO_SUCH_OBJECT) { // deleted meanwhile: nothing to lock
                LOCKS.warn("{} reached its lockout count, but the lock could not be written: {}", dn,
                        e.getMessage());
            }
            return invalidCredentials(); // the bind failed either way
        }
        return lockedOut();
    }

    /** A refused account (disabled, locked, no policy) answers as a wrong password, plus accountLocked if asked. */
    Result refused(Entry entry) {
        return refused(server.accounts().account(entry));
    }

    private Result refused(Account account) {
        return account.isLocked() ? lockedOut() : invalidCredentials();
    }

    private Result lockedOut() {
        return withPolicyError(invalidCredentials(), PasswordPolicyErrorType.ACCOUNT_LOCKED);
    }

    /** {@code result} with the Password Policy response control saying {@code error}, if the client asked. */
    private Result withPolicyError(Result result, PasswordPolicyErrorType error) {
        if (wantsPolicyState) {
            result.addControl(PasswordPolicyResponseControl.newControl(error));
        }
        return result;
    }

    /**
     * The successful {@code result}, unless a write committed while this bind ran: its registry scan may
     * have missed this connection, so the entry is read again (on a worker: the read may block), and if it is
     * gone, renamed or disabled the bind fails (the race described in WriteEpoch).
     *
     * @param epoch the write epoch taken before the entry was read
     */
    Result unlessAWriteRaced(Backend backend, DN dn, Result result, long epoch) {
        if (server.writeEpoch().current() == epoch) {
            return result;
        }
        return onWorkers(() -> {
            try {
                if (stillValid(backend, dn)) {
                    return result;
                }
                session.resetAuthentication();
                outcome = AuthenticationInfo.ANONYMOUS;
                return invalidCredentials();
            } catch (BackendException e) {
                session.resetAuthentication();
                return errorResult(e.resultCode(), e.getMessage());
            }
        });
    }

    private boolean stillValid(Backend backend, DN dn) throws BackendException {
        Entry now = backend.getEntry(dn, server.bindAttributes());
        return now != null && server.accounts().whyRefused(now) == null;
    }

    /**
     * The success of a password check: the connection is authenticated as {@code user}, or for a PLAIN bind as
     * what its authorization identity names.
     */
    private Result authenticated(AuthenticationInfo user) {
        return plain == null ? success(user) : plain.authorized(user);
    }

    Result success(AuthenticationInfo info) {
        outcome = info;
        if (!info.isAnonymous()) {
            session.authenticated(info);
            if (nameToKeep != null) {
                server.bindDns().keep(nameToKeep, bindDN);
            }
        }
        BindResult result = Responses.newBindResult(ResultCode.SUCCESS);
        if (wantsAuthzId) {
            result.addControl(AuthorizationIdentityResponseControl.newControl(info.authzId()));
        }
        return result;
    }

    Result invalidCredentials() {
        return Responses.newBindResult(ResultCode.INVALID_CREDENTIALS);
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newBindResult(code).setDiagnosticMessage(message);
    }

    /** Into the bind-time histogram of its scheme and outcome: two adds, nothing looked up or allocated. */
    @Override
    protected void timed(long etimeNanos) {
        server.operationCounts().bindTimes().record(scheme, resultCode(), etimeNanos);
    }

    @Override
    protected String kind() {
        return "BIND";
    }

    @Override
    public OperationType operationType() {
        return OperationType.BIND;
    }

    /** The entry a SASL mechanism found to bind as: what the bind targets and logs. */
    void bindDN(DN dn) {
        bindDN = dn;
    }

    @Override
    public DN targetDN() {
        return bindDN;
    }

    @Override
    protected String logDN() {
        return request.getName();
    }

    @Override
    protected String logDetails(Result result) {
        if (outcome.isAnonymous()) {
            return "";
        }
        String authDN = AccessRecord.quoted("authDN", outcome.authenticationDN());
        // A PLAIN bind authorized as another user: who proved the password, and whom the connection acts as.
        if (plain == null || plain.authzId().isEmpty() || bindDN.equals(outcome.authenticationDN())) {
            return authDN;
        }
        return AccessRecord.quoted("authDN", bindDN) + " "
                + AccessRecord.quoted("authzDN", outcome.authenticationDN());
    }
}
