package io.bindfirst.server.core;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.ConditionResult;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.DecodeException;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.controls.AssertionRequestControl;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.controls.ServerSideSortRequestControl;
import org.forgerock.opendj.ldap.controls.SimplePagedResultsControl;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.forgerock.opendj.ldap.responses.Response;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;
import org.forgerock.opendj.ldap.schema.AttributeType;

import io.bindfirst.server.filter.FilterDepth;
import io.bindfirst.server.filter.FilterMatcher;
import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.access.Requester;
import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.cache.LookupCache;
import io.bindfirst.server.config.ServerConfig;
import io.bindfirst.server.log.AccessRecord;
import io.bindfirst.server.plugin.OperationType;
import io.bindfirst.server.schema.FilterAttributeNames;
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
    /**
     * The latest entry found, not sent yet: it goes when the next is found or, the search done, in one write with
     * the result ({@link #keptBack()}). A login's search finds one entry; sent alone it cost a write of its own.
     */
    private Response keptBack;
    /** When {@link #keptBack} was found: a walk that finds nothing more for a while sends it anyway. */
    private long keptSince;
    /** How long an entry is kept back while the walk goes on without finding another. */
    private static final long LONGEST_KEPT_NANOS = 1_000_000;
    /** The members of the group the filter requires (isMemberOf=...), the only candidates; else null. */
    private List<DN> groupCandidates;

    /**
     * The lookup cache's key and filter when this is a search it may answer (a login's), else null; made when the
     * operation starts (the transport attaches the request's controls after constructing it), in {@link #lookup()}.
     */
    private SearchLookup lookup;
    private boolean lookupKnown;

    public SearchOperation(ServerContext server, Session session, int messageId, SearchRequest request) {
        super(server, session, messageId);
        this.request = request;
    }

    private SearchLookup lookup() {
        if (!lookupKnown) {
            lookup = server.lookups() == null ? null : SearchLookup.of(request, server.schema());
            lookupKnown = true;
        }
        return lookup;
    }

    /**
     * A login's search may, when the lookup cache holds its key: it is then answered from memory on the thread
     * that read it, as a cached bind is. One that asks for the computed attributes, which read the backend, may
     * not; one whose key is gone by the time it runs moves to the workers.
     */
    @Override
    public boolean startsInline() {
        if (lookup() == null || !server.lookups().holds(lookup.key())) {
            return false;
        }
        for (String a : request.getAttributes()) {
            if (a.equals("+") || a.equalsIgnoreCase("hasSubordinates")) {
                return false;
            }
        }
        return !FilterAttributeNames.anyMatch(request.getFilter(),
                d -> d == null || d.equalsIgnoreCase("hasSubordinates"));
    }

    @Override
    protected List<Control> requestControls() {
        return request.getControls();
    }

    /** RFC 4370: a search may run as another identity (access checks and limits are its). */
    @Override
    protected boolean actsAsProxiedIdentity() {
        return true;
    }

    @Override
    protected boolean understands(String oid) {
        return SimplePagedResultsControl.OID.equals(oid) || AssertionRequestControl.OID.equals(oid)
                || ServerSideSortRequestControl.OID.equals(oid) || super.understands(oid);
    }

    /** The Assertion control's filter, or {@code null}. */
    private Assertion assertion;

    /** Set when the filter was refused for its depth: nothing may walk it recursively, the log included. */
    private boolean filterTooDeep;

    @Override
    protected Result execute() {
        SearchScope requested = request.getScope();
        if (requested != SearchScope.BASE_OBJECT && requested != SearchScope.SINGLE_LEVEL
                && requested != SearchScope.WHOLE_SUBTREE && requested != SearchScope.SUBORDINATES) {
            // RFC 4511 4.5.1.2: scope is ENUMERATED 0-2 (3, subordinates, from draft-sermersheim-ldap-subordinate-
            // scope); the SDK's reader makes an unknown value a scope of its own, which matched nothing, or from the
            // root DSE everything.
            return errorResult(ResultCode.PROTOCOL_ERROR, "The search scope " + requested.intValue()
                    + " is not one of base (0), one (1), sub (2) and subordinates (3)");
        }
        if (FilterDepth.tooDeep(request.getFilter())) {
            filterTooDeep = true;
            return errorResult(ResultCode.ADMIN_LIMIT_EXCEEDED, "The filter nests more than " + FilterDepth.MAX
                    + " levels of AND, OR and NOT");
        }
        PagedResults paging;
        PagedResults.Resume resume;
        SortedResults sort;
        try {
            assertion = Assertion.of(control(AssertionRequestControl.DECODER), server.schema());
            sort = SortedResults.of(control(ServerSideSortRequestControl.DECODER), server.schema(),
                    server.config().limits().sortLimit());
            SimplePagedResultsControl pagedControl = control(SimplePagedResultsControl.DECODER);
            if (pagedControl != null && pagedControl.getSize() < 0) {
                // RFC 2696: size INTEGER (0..maxInt); a negative one is not a request to stop (that is 0).
                return errorResult(ResultCode.PROTOCOL_ERROR, "The paged results control's size is negative");
            }
            paging = pagedControl == null ? null
                    : PagedResults.of(pagedControl, request, requester(), sort == null ? "" : sort.identity());
            resume = paging == null ? null : paging.resume(pagedControl.getCookie());
        } catch (DecodeException e) {
            return malformedControl(e);
        } catch (PagedResults.InvalidCookie e) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, e.getMessage());
        }
        if (sort != null && !sort.usable() && sort.critical()) {
            // RFC 2891 1.2: a critical sort that cannot be done fails the search, with the reason in the control.
            Result refused = errorResult(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION,
                    "The search results cannot be sorted by those keys");
            refused.addControl(sort.response(null));
            return refused;
        }
        if (paging != null && paging.pageSize() == 0) {
            // RFC 2696 3: the client is done with the paged search; nothing is kept, so nothing to release.
            Result done = Responses.newResult(ResultCode.SUCCESS);
            done.addControl(paging.response(null));
            return done;
        }
        groupCandidates = server.groups().isMemberOf().candidates(request.getFilter());
        AuthenticationInfo auth = requester(); // a proxied authorization's identity has its own limits
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
                new AttributeSelection(request.getAttributes(), request.isTypesOnly(), server.accessPolicy(),
                        accessRequester(), server.schema(), server.groups().isMemberOf()),
                accessRequester(), FilterAttributes.of(request.getFilter(), server.schema()), paging, resume, sort);

        DN base = request.getName();
        SearchScope scope = request.getScope();
        Result pre = preOperation();
        if (pre != null) {
            return pre;
        }
        try {
            if (base.isRootDN()) {
                if (assertion != null && !assertion.holds(server.virtualEntries().rootDse(), server.accessPolicy(),
                        accessRequester())) {
                    return errorResult(ResultCode.ASSERTION_FAILED, assertion.failure());
                }
                return searchFromRoot(walk, scope);
            }
            if (base.equals(VirtualEntries.SCHEMA_DN)) {
                if (assertion != null && !assertion.holds(server.virtualEntries().schemaEntry(),
                        server.accessPolicy(), accessRequester())) {
                    return errorResult(ResultCode.ASSERTION_FAILED, assertion.failure());
                }
                if (scope != SearchScope.SINGLE_LEVEL && scope != SearchScope.SUBORDINATES && resume == null) {
                    walk.offer(server.virtualEntries().schemaEntry(), null, null);
                }
                return walk.result();
            }
            Backend backend = server.backends().backendFor(base);
            if (backend == null) {
                return errorResult(ResultCode.NO_SUCH_OBJECT, "The search base " + base + " does not exist");
            }
            AccessDecision visible = server.accessPolicy().maySearchUnder(accessRequester(), base);
            if (!visible.allowed()) {
                return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, visible.message());
            }
            Result failed = baseAssertionFailed(backend, base);
            if (failed != null) {
                return failed;
            }
            if (scope != SearchScope.BASE_OBJECT && groupCandidates == null
                    && backend.isUnindexed(request.getFilter())) {
                AccessDecision unindexed = server.accessPolicy().mayRunUnindexed(accessRequester());
                if (!unindexed.allowed()) {
                    return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, unindexed.message());
                }
                // It walks its whole scope: the slow lane runs it, paced, off the workers.
                return onSlowLane(() -> searchBackendToResult(backend, base, scope, walk));
            }
            if (lookup() != null && groupCandidates == null && server.backends().userBackends().contains(backend)
                    && !backend.isUnindexed(lookup.equality())) {
                return lookUp(backend, base, scope, walk);
            }
            if (inline()) {
                return onWorkers(() -> searchBackendToResult(backend, base, scope, walk));
            }
            return searchBackendToResult(backend, base, scope, walk);
        } catch (BackendException e) {
            return backendError(e, base);
        }
    }

    /**
     * RFC 4528 3: a search's assertion is evaluated against its base entry; {@code assertionFailed} (and no
     * entries) when it does not match, {@code null} to go on. A base the requester may not see answers
     * {@code noSuchObject}, as if it did not exist.
     */
    private Result baseAssertionFailed(Backend backend, DN base) throws BackendException {
        if (assertion == null) {
            return null;
        }
        Entry entry = backend.getEntry(base);
        if (entry == null || !server.accessPolicy().maySee(accessRequester(), entry).allowed()) {
            return backendError(new BackendException(ResultCode.NO_SUCH_OBJECT,
                    "The search base " + base + " does not exist"), base);
        }
        return assertion.holds(entry, server.accessPolicy(), accessRequester()) ? null
                : errorResult(ResultCode.ASSERTION_FAILED, assertion.failure());
    }

    /**
     * A login's search: the entries the lookup cache holds for its key, or the backend's for the key's equality
     * alone (on the workers), which the cache then keeps unless a write came in between or the walk stopped
     * early. Either way the walk applies access control and the whole filter to each.
     */
    private Result lookUp(Backend backend, DN base, SearchScope scope, Walk walk) {
        LookupCache lookups = server.lookups();
        List<Entry> held = lookups.get(lookup.key(), base, scope);
        if (held == null) {
            return onWorkers(() -> lookUpInBackend(backend, base, scope, walk));
        }
        AttributeSelection.SubordinateCheck subordinates = subordinatesOf(backend);
        for (Entry e : held) {
            if (!walk.offer(e, subordinates, null)) {
                break;
            }
        }
        return walk.result();
    }

    private Result lookUpInBackend(Backend backend, DN base, SearchScope scope, Walk walk) {
        LookupCache lookups = server.lookups();
        lookups.missed();
        long seen = lookups.generation();
        List<Entry> found = new ArrayList<>(2);
        boolean[] stopped = {false};
        AttributeSelection.SubordinateCheck subordinates = subordinatesOf(backend);
        try {
            backend.search(base, scope, lookup.equality(), e -> {
                if (found.size() <= LookupCache.MOST_ENTRIES) {
                    found.add(e);
                }
                stopped[0] = !walk.offer(e, subordinates, null);
                return !stopped[0];
            });
        } catch (BackendException e) {
            return backendError(e, base);
        }
        if (!stopped[0]) {
            lookups.admit(lookup.key(), base, scope, found, seen);
        }
        return walk.result();
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
            if (walk.resume == null) {
                walk.offer(server.virtualEntries().rootDse(), null, null);
            }
            return walk.result();
        }
        List<DN> contexts = server.backends().namingContexts();
        for (int i = walk.resume == null || walk.sorting ? 0 : walk.resume.context(); i < contexts.size(); i++) {
            DN context = contexts.get(i);
            Backend backend = server.backends().backendFor(context);
            SearchScope s = scope == SearchScope.SINGLE_LEVEL ? SearchScope.BASE_OBJECT : SearchScope.WHOLE_SUBTREE;
            if (backend.entryExists(context)) {
                walk.context = i;
                searchBackend(backend, context, s, walk);
            }
            if (walk.stopped()) {
                break;
            }
        }
        return walk.result();
    }

    private static AttributeSelection.SubordinateCheck subordinatesOf(Backend backend) {
        return e -> {
            try {
                return backend.hasSubordinates(e.getName());
            } catch (BackendException ex) {
                return false;
            }
        };
    }

    private void searchBackend(Backend backend, DN base, SearchScope scope, Walk walk) throws BackendException {
        AttributeSelection.SubordinateCheck subordinates = subordinatesOf(backend);
        if (groupCandidates != null) {
            searchGroupCandidates(backend, base, scope, walk, subordinates);
            return;
        }
        if (walk.paging == null || walk.sorting) {
            // A sorted search walks everything each time: its pages are positions in the sorted order.
            backend.search(base, scope, request.getFilter(), e -> walk.offer(e, subordinates, null));
            return;
        }
        ByteString after = walk.resume != null && walk.resume.context() == walk.context ? walk.resume.position() : null;
        backend.search(base, scope, request.getFilter(), after, (e, position) -> walk.offer(e, subordinates, position));
    }

    /**
     * A filter that requires membership of a group: its members are the only candidates, read one by one. A page
     * of a paged search is a position in that list (the group's members in the index's order): a page ends after
     * the n-th candidate, and the next begins there.
     */
    private void searchGroupCandidates(Backend backend, DN base, SearchScope scope, Walk walk,
                                       AttributeSelection.SubordinateCheck subordinates) throws BackendException {
        if (!backend.entryExists(base)) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT, "The search base " + base + " does not exist");
        }
        boolean resuming = walk.paging != null && !walk.sorting && walk.resume != null
                && walk.resume.context() == walk.context;
        long from = resuming ? PagedResults.ordinal(walk.resume.position()) : 0;
        for (int i = 0; i < groupCandidates.size(); i++) {
            if (i < from) {
                continue;
            }
            DN dn = groupCandidates.get(i);
            if (dn.isInScopeOf(base, scope) && server.backends().backendFor(dn) == backend) {
                Entry e = backend.getEntry(dn);
                ByteString position = walk.paging == null || walk.sorting ? null : PagedResults.ordinalPosition(i + 1);
                if (e != null && !walk.offer(e, subordinates, position)) {
                    return;
                }
            }
        }
    }

    /**
     * {@code entry} as the filter may test it for {@code who}: without the attributes the filter tests that the
     * requester may not search, so which entries match tells nothing about them. The entry itself (no copy)
     * when nothing is hidden, the common case.
     */
    private Entry searchable(Entry entry, Requester who, FilterAttributes tested) {
        Entry copy = null;
        int at = 0;
        for (Attribute a : entry.getAllAttributes()) {
            AttributeType type = a.getAttributeDescription().getAttributeType();
            boolean hidden = tested.tests(type) && !server.accessPolicy().maySearch(who, entry, type).allowed();
            if (hidden && copy == null) {
                // The attributes before this one, counted: a shared (read-only) entry hands out a new view of each
                // attribute at every walk, so none is the same object twice.
                copy = new LinkedHashMapEntry(entry.getName());
                int i = 0;
                for (Attribute before : entry.getAllAttributes()) {
                    if (i++ == at) {
                        break;
                    }
                    copy.addAttribute(before);
                }
            } else if (!hidden && copy != null) {
                copy.addAttribute(a);
            }
            at++;
        }
        return copy == null ? entry : copy;
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
        private final Requester who;
        private final FilterAttributes filterAttributes;
        /** Whether the filter tests isMemberOf (or its alias): only then are its values computed for it. */
        private final boolean testsGroups;
        /** Which of the computed attributes (entryDN, hasSubordinates, ...) the filter names: computed for it. */
        private final List<String> testsComputed;
        /** The paged results control's paging, or {@code null}; where the previous page ended, or {@code null}. */
        final PagedResults paging;
        final PagedResults.Resume resume;
        /** The sort control, or {@code null}; whether its entries are being held to be sorted. */
        private final SortedResults sort;
        boolean sorting;
        /** The naming context being searched, by its index (a search from the root goes through them all). */
        int context;
        /** Where the last entry sent was, while paging. */
        private PagedResults.Resume lastSent;
        /** Set when a full page stopped the search and a matching entry was left for the next one. */
        private boolean more;
        private int examined;
        private ResultCode stop;
        private String stopMessage;

        /**
         * @param filterAttributes what the filter tests: where the requester may not search an attribute, the
         *        filter is evaluated as if it were absent, so which entries match tells nothing about it
         */
        Walk(FilterMatcher matcher, int sizeLimit, long deadlineNanos, int lookthroughLimit,
             AttributeSelection selection, Requester who, FilterAttributes filterAttributes, PagedResults paging,
             PagedResults.Resume resume, SortedResults sort) {
            this.matcher = matcher;
            this.paging = paging;
            this.resume = resume;
            this.sort = sort;
            this.sorting = sort != null && sort.usable();
            this.who = who;
            this.filterAttributes = filterAttributes;
            // Loops, not streams: this runs for every search, a login's included.
            boolean groups = false;
            for (AttributeType t : server.groups().isMemberOf().types()) {
                groups |= filterAttributes.tests(t);
            }
            this.testsGroups = groups;
            List<String> computed = List.of();
            for (String name : AttributeSelection.COMPUTED) {
                if (filterAttributes.names(server.schema().getAttributeType(name))) {
                    computed = computed.isEmpty() ? new ArrayList<>(3) : computed;
                    computed.add(name);
                }
            }
            this.testsComputed = computed;
            this.sizeLimit = sizeLimit;
            this.deadlineNanos = deadlineNanos;
            this.lookthroughLimit = lookthroughLimit;
            this.selection = selection;
        }

        /** @return whether to go on */
        boolean offer(Entry entry, AttributeSelection.SubordinateCheck virtualAttributes, ByteString position) {
            server.slowLane().pacer().pace(); // gives way to the workers when on the slow lane; else nothing
            if (isAbandoned()) {
                return stop(ResultCode.CANCELLED, "Abandoned");
            }
            if (cancelRequested()) {
                return stop(ResultCode.CANCELLED, "Cancelled by the client (RFC 3909)");
            }
            if (lookthroughLimit > 0 && ++examined > lookthroughLimit) {
                return stop(ResultCode.ADMIN_LIMIT_EXCEEDED, "This search examined more than the "
                        + lookthroughLimit + " candidate entries the lookthrough limit allows; "
                        + "use a filter on an indexed attribute");
            }
            long now = System.nanoTime();
            if (now > deadlineNanos) {
                return stop(ResultCode.TIME_LIMIT_EXCEEDED, "The time limit for this search was exceeded");
            }
            if (keptBack != null && now - keptSince > LONGEST_KEPT_NANOS) {
                // A long walk between two matches: the client has the entry now, not when the next turns up.
                sink().send(keptBack);
                keptBack = null;
            }
            if (!server.accessPolicy().maySee(who, entry).allowed()) {
                return true;
            }
            // Stored entries only (they come with their subordinate check): the root DSE and cn=schema are in no
            // group, and their attributes are all their own.
            Entry tested = entry;
            if (virtualAttributes != null) {
                tested = testsGroups ? server.groups().isMemberOf().withValues(entry) : entry;
                tested = AttributeSelection.withComputed(tested, testsComputed, virtualAttributes, server.schema());
            }
            if (matcher.matches(searchable(tested, who, filterAttributes)) != ConditionResult.TRUE) {
                return true;
            }
            if (sorting) {
                if (sort.add(entry, virtualAttributes)) {
                    return true;
                }
                if (sort.critical() || paging != null) {
                    // RFC 2891 1.2 for a critical sort; a paged one is held to the bound too, as its pages are
                    // positions in the sorted order.
                    return stop(ResultCode.UNAVAILABLE_CRITICAL_EXTENSION, "This search matches more than the "
                            + sort.limit() + " entries the server sorts");
                }
                // Not critical: the entries go out unsorted, the control saying why.
                sorting = false;
                for (SortedResults.Item held : sort.unsorted()) {
                    if (!deliver(held.entry(), held.subordinates(), null)) {
                        return false;
                    }
                }
            }
            return deliver(entry, virtualAttributes, position);
        }

        /** Sends an entry that matched, within the page and the size limit. */
        private boolean deliver(Entry entry, AttributeSelection.SubordinateCheck virtualAttributes,
                                ByteString position) {
            if (paging != null && entriesSent >= paging.pageSize()) {
                more = true; // this entry starts the next page
                return false;
            }
            if (sizeLimit > 0 && entriesSent >= sizeLimit) {
                return stop(ResultCode.SIZE_LIMIT_EXCEEDED,
                        "This search returned the " + sizeLimit + " entries its size limit allows");
            }
            if (keptBack != null) {
                sink().send(keptBack);
            }
            keptBack = Responses.newSearchResultEntry(selection.select(entry, virtualAttributes));
            keptSince = System.nanoTime();
            entriesSent++;
            if (paging != null) {
                lastSent = position == null ? null : new PagedResults.Resume(context, position);
            }
            return true;
        }

        /** The held entries in order, from where the last page ended: once the walk is over. */
        private void sendSorted() {
            List<SortedResults.Item> sorted = sort.sorted();
            long from = resume == null ? 0 : PagedResults.ordinal(resume.position());
            for (long i = from; i < sorted.size(); i++) {
                SortedResults.Item item = sorted.get((int) i);
                if (!deliver(item.entry(), item.subordinates(), PagedResults.ordinalPosition(i + 1))) {
                    return;
                }
            }
        }

        private boolean stop(ResultCode code, String message) {
            stop = code;
            stopMessage = message;
            return false;
        }

        boolean stopped() {
            return stop != null || more;
        }

        Result result() {
            boolean sorted = false;
            if (sorting && stop == null) {
                sendSorted();
                sorted = true;
            }
            Result r = stop == null ? Responses.newResult(ResultCode.SUCCESS) : errorResult(stop, stopMessage);
            if (sort != null) {
                r.addControl(sort.response(sorting && !sorted ? stop : null));
            }
            if (paging != null) {
                // RFC 2696 3: the control on every result of a paged search; the empty cookie when it is over.
                r.addControl(paging.response(stop == null && more ? lastSent : null));
            }
            return r;
        }
    }

    @Override
    protected Response keptBack() {
        Response last = keptBack;
        keptBack = null;
        return last;
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
