package io.bindfirst.it.support;

import com.unboundid.ldap.sdk.LDAPException;
import com.unboundid.ldap.sdk.LDAPResult;

/** The result of a client call whether it succeeded or threw, for tests that look at result codes and messages. */
public final class LdapOutcome {
    private LdapOutcome() {
    }

    /** A call to the UnboundID SDK that answers with a result or throws one. */
    public interface Call {
        LDAPResult run() throws LDAPException;
    }

    public static LDAPResult of(Call call) {
        try {
            return call.run();
        } catch (LDAPException e) {
            return e.toLDAPResult();
        }
    }
}
