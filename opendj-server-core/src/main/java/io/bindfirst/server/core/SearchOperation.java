package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.virtual.VirtualEntries;

/**
 * A search (RFC 4511 4.5). The backend proposes candidates (narrowed by its indexes); this class
 * evaluates the filter with the server schema ({@link FilterMatcher}), enforces the size, time and
 * lookthrough limits, selects attributes and sends the entries.
 *
 * <p>Limits: the server-wide ones apply to everyone but root users; a lower limit in the request wins.
 */
public final class SearchOperation extends Operation {
    private final SearchRequest request;
    private int entriesSent;

    public SearchOperation(ServerContext server, Session session, int messageId, SearchRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    /** Set when the filter was refused for its depth: nothing may walk it recursively, the log included. */
    private boolean filterTooDeep;

    @Override
    protected Result execute() {
        if (FilterDepth.tooDeep(request.getFilter())) {
            filterTooDeep = true;
            return errorResult(ResultCode.ADMIN_LIMIT_EXCEEDED, "The filter nests more than " + FilterDepth.MAX
                    + " levels of AND, OR and NOT");
        }
        AuthenticationInfo auth = session.authentication();
        ServerConfig.Limits limits = server.config().limits();
        // A user's own limits (ds-rlim-*) replace the server-wide ones; root users have none.
        int serverSize = auth.root() ? 0 : auth.sizeLimit() >= 0 ? auth.sizeLimit() : limits.sizeLimit();
        int serverTime = auth.root() ? 0 : auth.timeLimitSeconds() >= 0 ? auth.timeLimitSeconds()
                : limits.timeLimitSeconds();
        int sizeLimit = effective(request.getSizeLimit(), serverSize);
        int timeLimit = effective(request.getTimeLimit(), serverTime);
        Walk walk = new Walk(new FilterMatcher(request.getFilter(), server.schema()), sizeLimit,
                timeLimit == 0 ? Long.MAX_VALUE : startNanos + timeLimit * 1_000_000_000L,
                auth.root() ? 0 : limits.lookthroughLimit(),
                new AttributeSelection(request.getAttributes(), request.isTypesOnly(), server.accessPolicy(), auth,
                        server.schema()),
                auth, server.passwordAttribute().mentionedIn(request.getFilter()));

        DN base = request.getName();
        SearchScope scope = request.getScope();
        Result pre = preOperation();
        if (pre != null) {
            return pre;
        }
        try {
            if (base.isRootDN()) {
                return searchFromRoot(walk, scope);
            }
            if (base.equals(VirtualEntries.SCHEMA_DN)) {
                if (scope != SearchScope.SINGLE_LEVEL && scope != SearchScope.SUBORDINATES) {
                    walk.offer(server.virtualEntries().schemaEntry(), null);
                }
                return walk.result();
            }
            Backend backend = server.backends().backendFor(base);
            if (backend == null) {
                return errorResult(ResultCode.NO_SUCH_OBJECT, "The search base " + base + " does not exist");
            }
            AccessDecision visible = server.accessPolicy().maySee(auth, base);
            if (!visible.allowed()) {
                return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, visible.message());
            }
            if (scope != SearchScope.BASE_OBJECT && backend.isUnindexed(request.getFilter())) {
                // It walks its whole scope: the slow lane runs it, paced, off the workers.
                return onSlowLane(() -> searchBackendToResult(backend, base, scope, walk));
            }
            return searchBackendToResult(backend, base, scope, walk);
        } catch (BackendException e) {
            return backendError(e, base);
        }
    }

    private Result searchBackendToResult(Backend backend, DN base, SearchScope scope, Walk walk) {
        try {
            searchBackend(backend, base, scope, walk);
            return walk.result();
        } catch (BackendException e) {
            return backendError(e, base);
        }
    }

    private Result backendError(BackendException e, DN base) {
        Result r = errorResult(e.resultCode(), e.getMessage());
        if (e.resultCode() == ResultCode.NO_SUCH_OBJECT) {
            r.setMatchedDN(matchedDN(base));
        }
        return r;
    }

    /** Base DN "": the root DSE itself for a base search, else the naming contexts and what is below them. */
    private Result searchFromRoot(Walk walk, SearchScope scope) throws BackendException {
        if (scope == SearchScope.BASE_OBJECT) {
            walk.offer(server.virtualEntries().rootDse(), null);
            return walk.result();
        }
        for (DN context : server.backends().namingContexts()) {
            Backend backend = server.backends().backendFor(context);
            SearchScope s = scope == SearchScope.SINGLE_LEVEL ? SearchScope.BASE_OBJECT : SearchScope.WHOLE_SUBTREE;
            if (backend.entryExists(context)) {
                searchBackend(backend, context, s, walk);
            }
            if (walk.stopped()) {
                break;
            }
        }
        return walk.result();
    }

    private void searchBackend(Backend backend, DN base, SearchScope scope, Walk walk) throws BackendException {
        AttributeSelection.SubordinateCheck subordinates = e -> {
            try {
                return backend.hasSubordinates(e.getName());
            } catch (BackendException ex) {
                return false;
            }
        };
        backend.search(base, scope, request.getFilter(), e -> walk.offer(e, subordinates));
    }

    /** The deepest existing superior of {@code dn}, for a noSuchObject result (RFC 4511 4.1.9). */
    private String matchedDN(DN dn) {
        Backend backend = server.backends().backendFor(dn);
        if (backend == null) {
            return "";
        }
        try {
            for (DN p = dn.parent(); p != null && !p.isRootDN(); p = p.parent()) {
                if (backend.entryExists(p)) {
                    return p.toString();
                }
            }
        } catch (BackendException e) {
            // no matched DN then
        }
        return "";
    }

    /** The entry without its password attributes (with any options), for a filter that must not test them. */
    private Entry withoutPasswords(Entry entry) {
        Entry copy = new LinkedHashMapEntry(entry.getName());
        for (Attribute a : entry.getAllAttributes()) {
            if (!server.passwordAttribute().isPassword(a.getAttributeDescription())) {
                copy.addAttribute(a);
            }
        }
        return copy;
    }

    private static int effective(int requested, int serverLimit) {
        if (serverLimit == 0) {
            return Math.max(0, requested);
        }
        return requested <= 0 ? serverLimit : Math.min(requested, serverLimit);
    }

    /** The state of one search's walk over candidates; decides when to stop and with what result. */
    private final class Walk {
        private final FilterMatcher matcher;
        private final int sizeLimit;
        private final long deadlineNanos;
        private final int lookthroughLimit;
        private final AttributeSelection selection;
        private final AuthenticationInfo who;
        private final boolean filterMentionsPasswords;
        private int examined;
        private ResultCode stop;
        private String stopMessage;

        /**
         * @param filterMentionsPasswords whether the filter may test the password attribute: where the
         *        requester may not read it, the filter is evaluated as if it were absent, so which entries
         *        match tells nothing about passwords
         */
        Walk(FilterMatcher matcher, int sizeLimit, long deadlineNanos, int lookthroughLimit,
             AttributeSelection selection, AuthenticationInfo who, boolean filterMentionsPasswords) {
            this.matcher = matcher;
            this.who = who;
            this.filterMentionsPasswords = filterMentionsPasswords;
            this.sizeLimit = sizeLimit;
            this.deadlineNanos = deadlineNanos;
            this.lookthroughLimit = lookthroughLimit;
            this.selection = selection;
        }

        /** @return whether to go on */
        boolean offer(Entry entry, AttributeSelection.SubordinateCheck virtualAttributes) {
            server.slowLane().pacer().pace(); // gives way to the workers when on the slow lane; else nothing
            if (isAbandoned()) {
                return stop(ResultCode.CANCELLED, "Abandoned");
            }
            if (lookthroughLimit > 0 && ++examined > lookthroughLimit) {
                return stop(ResultCode.ADMIN_LIMIT_EXCEEDED, "This search examined more than the "
                        + lookthroughLimit + " candidate entries the lookthrough limit allows; "
                        + "use a filter on an indexed attribute");
            }
            if (System.nanoTime() > deadlineNanos) {
                return stop(ResultCode.TIME_LIMIT_EXCEEDED, "The time limit for this search was exceeded");
            }
            if (!server.accessPolicy().maySee(who, entry.getName()).allowed()) {
                return true;
            }
            boolean hidePasswords = filterMentionsPasswords && !server.accessPolicy()
                    .mayRead(who, entry.getName(), server.passwordAttribute().type()).allowed();
            if (matcher.matches(hidePasswords ? withoutPasswords(entry) : entry) != ConditionResult.TRUE) {
                return true;
            }
            if (sizeLimit > 0 && entriesSent >= sizeLimit) {
                return stop(ResultCode.SIZE_LIMIT_EXCEEDED,
                        "This search returned the " + sizeLimit + " entries its size limit allows");
            }
            sink().send(Responses.newSearchResultEntry(selection.select(entry, virtualAttributes)));
            entriesSent++;
            return true;
        }

        private boolean stop(ResultCode code, String message) {
            stop = code;
            stopMessage = message;
            return false;
        }

        boolean stopped() {
            return stop != null;
        }

        Result result() {
            return stop == null ? Responses.newResult(ResultCode.SUCCESS) : errorResult(stop, stopMessage);
        }
    }

    @Override
    protected String kind() {
        return "SEARCH";
    }

    @Override
    public OperationType operationType() {
        return OperationType.SEARCH;
    }

    @Override
    public DN targetDN() {
        return request.getName();
    }

    @Override
    protected String logDetails(Result result) {
        Object filter = filterTooDeep ? "(nested more than " + FilterDepth.MAX + " levels)"
                : server.passwordAttribute().maskedForLogs(request.getFilter());
        return "scope=" + request.getScope() + " " + AccessRecord.quoted("filter", filter) + " nentries="
                + entriesSent;
    }
}
