package io.bindfirst.it.bind;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;

import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import com.unboundid.ldap.protocol.LDAPMessage;
import com.unboundid.ldap.protocol.SearchRequestProtocolOp;
import com.unboundid.ldap.sdk.DereferencePolicy;
import com.unboundid.ldap.sdk.Filter;
import com.unboundid.ldap.sdk.SearchScope;

import io.bindfirst.it.support.RawLdap;
import io.bindfirst.it.support.TestServer;

/**
 * RFC 4511 4.2.1: "Before processing a BindRequest, all uncompleted operations MUST either complete or be
 * abandoned." An anonymous search for a password sent in the same write as a root bind once ran after the bind, as
 * root, and returned the password (6 tries in 25, found side by side with slapd, which abandons the search, and
 * OpenDJ). Now a bind abandons what is outstanding; a search that completes first does so as the identity that sent
 * it.
 */
public class BindAbandonsOutstandingTest {
    private static final int TRIES = 200;
    private TestServer server;

    @BeforeClass
    public void start() throws Exception {
        server = TestServer.start(5);
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    @Test
    public void aSearchSentBeforeABindNeverRunsAsTheBindsIdentity() throws Exception {
        byte[] search = new LDAPMessage(1, new SearchRequestProtocolOp(TestServer.user(2), SearchScope.BASE,
                DereferencePolicy.NEVER, 0, 0, false, Filter.create("(objectClass=*)"),
                List.of("cn", "userPassword"))).encode().encode();
        byte[] marker = new LDAPMessage(3, new SearchRequestProtocolOp("", SearchScope.BASE, DereferencePolicy.NEVER,
                0, 0, false, Filter.create("(objectClass=*)"), List.of("1.1"))).encode().encode();
        for (int i = 0; i < TRIES; i++) {
            try (RawLdap c = new RawLdap(server.port())) {
                c.send(search, RawLdap.bind(2, TestServer.ROOT_DN, TestServer.ROOT_PASSWORD));
                boolean marked = false;
                while (!marked) {
                    LDAPMessage m = c.read();
                    if (m.getMessageID() == 2) {
                        assertEquals(m.getBindResponseProtocolOp().getResultCode(), 0);
                        c.send(marker); // answered after anything the first search still had to send
                    } else if (m.getMessageID() == 3) {
                        marked = m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_DONE;
                    } else if (m.getProtocolOpType() == LDAPMessage.PROTOCOL_OP_TYPE_SEARCH_RESULT_ENTRY) {
                        assertNull(m.getSearchResultEntryProtocolOp().toSearchResultEntry()
                                .getAttribute("userPassword"), "try " + i + ": the anonymous search ran as root");
                    }
                }
            }
        }
    }
}
