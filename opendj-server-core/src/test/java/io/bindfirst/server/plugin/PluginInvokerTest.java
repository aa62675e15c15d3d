package io.bindfirst.server.plugin;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertFalse;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.EntryChange;

public class PluginInvokerTest {

    /** A completed operation of a given type, as plugins see it. */
    private static CompletedOperationView op(OperationType type, ResultCode rc) {
        return new CompletedOperationView() {
            public OperationType operationType() { return type; }
            public long connectionId() { return 1; }
            public long operationId() { return 2; }
            public AuthenticationInfo requester() { return AuthenticationInfo.ANONYMOUS; }
            public DN targetDN() { return DN.valueOf("uid=x,dc=example,dc=com"); }
            public ResultCode resultCode() { return rc; }
            public Optional<EntryChange> change() { return Optional.empty(); }
        };
    }

    private static final class Recorder implements Plugin {
        final Set<Subscription> subs;
        final List<String> calls = new ArrayList<>();
        PluginResult preResult = PluginResult.CONTINUE;
        boolean failPost;

        Recorder(Subscription... subs) {
            this.subs = Set.of(subs);
        }

        public Set<Subscription> subscriptions() { return subs; }

        public PluginResult preParse(OperationView o) {
            calls.add("preParse " + o.operationType());
            return preResult;
        }

        public PluginResult preOperation(OperationView o) {
            calls.add("preOperation " + o.operationType());
            return preResult;
        }

        public void postOperation(CompletedOperationView o) {
            calls.add("postOperation " + o.operationType());
        }

        public void postResponse(CompletedOperationView o) {
            calls.add("postResponse " + o.operationType());
            if (failPost) {
                throw new IllegalStateException("plugin failure (expected by the test)");
            }
        }
    }

    @Test
    public void callsOnlyWhatEachPluginSubscribedTo() {
        Recorder deletes = new Recorder(new Plugin.Subscription(PluginPhase.POST_RESPONSE, OperationType.DELETE));
        Recorder binds = new Recorder(new Plugin.Subscription(PluginPhase.PRE_OPERATION, OperationType.BIND),
                new Plugin.Subscription(PluginPhase.POST_OPERATION, OperationType.BIND));
        PluginInvoker invoker = new PluginInvoker(List.of(deletes, binds));
        for (OperationType t : OperationType.values()) {
            CompletedOperationView o = op(t, ResultCode.SUCCESS);
            invoker.invokePre(PluginPhase.PRE_PARSE, o);
            invoker.invokePre(PluginPhase.PRE_OPERATION, o);
            invoker.invokePost(PluginPhase.POST_OPERATION, o);
            invoker.invokePost(PluginPhase.POST_RESPONSE, o);
        }
        // Every phase was invoked for every type: each plugin saw exactly its subscriptions, and a phase
        // and type no one subscribed to (post-response of MODIFY, say) reached no plugin.
        assertEquals(deletes.calls, List.of("postResponse DELETE"));
        assertEquals(binds.calls, List.of("preOperation BIND", "postOperation BIND"));
    }

    @Test
    public void theFirstPrePluginThatStopsDecidesAndTheRestAreSkipped() {
        Recorder first = new Recorder(new Plugin.Subscription(PluginPhase.PRE_PARSE, OperationType.ADD));
        Recorder second = new Recorder(new Plugin.Subscription(PluginPhase.PRE_PARSE, OperationType.ADD));
        first.preResult = PluginResult.stop(ResultCode.UNWILLING_TO_PERFORM, "no adds today");
        PluginResult r = new PluginInvoker(List.of(first, second))
                .invokePre(PluginPhase.PRE_PARSE, op(OperationType.ADD, null));
        assertFalse(r.continues());
        assertEquals(r.stopWith(), ResultCode.UNWILLING_TO_PERFORM);
        assertEquals(second.calls, List.of());
    }

    @Test
    public void aFailingPostPluginDoesNotStopTheOthers() {
        Recorder failing = new Recorder(new Plugin.Subscription(PluginPhase.POST_RESPONSE, OperationType.MODIFY));
        failing.failPost = true;
        Recorder next = new Recorder(new Plugin.Subscription(PluginPhase.POST_RESPONSE, OperationType.MODIFY));
        new PluginInvoker(List.of(failing, next)).invokePost(PluginPhase.POST_RESPONSE,
                op(OperationType.MODIFY, ResultCode.SUCCESS));
        assertEquals(next.calls, List.of("postResponse MODIFY"));
    }
}
