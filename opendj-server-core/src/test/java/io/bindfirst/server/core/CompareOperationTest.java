package io.bindfirst.server.core;

import static io.bindfirst.server.testsupport.InMemoryServer.PEOPLE;
import static io.bindfirst.server.testsupport.InMemoryServer.user;
import static org.testng.Assert.assertEquals;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.Requests;
import org.testng.annotations.AfterClass;
import org.testng.annotations.BeforeClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.InMemoryServer;
import io.bindfirst.server.testsupport.RecordingSink;
import io.bindfirst.server.testsupport.TestSession;

/** Compares (RFC 4511 4.10) through CompareOperation: compareTrue and compareFalse by the matching rule, errors. */
public class CompareOperationTest {
    private InMemoryServer server;
    private TestSession anonymous;

    @BeforeClass
    public void start() throws Exception {
        server = InMemoryServer.start(5);
        anonymous = server.newSession();
    }

    @AfterClass(alwaysRun = true)
    public void stop() {
        server.close();
    }

    private RecordingSink compare(String dn, String attribute, String value) {
        return server.send(anonymous, Requests.newCompareRequest(dn, attribute, value));
    }

    @Test
    public void theAnswerIsCompareTrueOrCompareFalseByTheAttributesMatchingRule() {
        assertEquals(compare(user(3), "mail", "USER.3@example.COM").code(), ResultCode.COMPARE_TRUE);
        assertEquals(compare(user(3), "sn", "4").code(), ResultCode.COMPARE_FALSE);
        assertEquals(compare(PEOPLE, "hasSubordinates", "TRUE").code(), ResultCode.COMPARE_TRUE,
                "an attribute the server computes, as a search returns it");
    }

    @Test
    public void aMissingAttributeIsNoSuchAttributeAndAMissingEntryNoSuchObject() {
        assertEquals(compare(user(3), "telephoneNumber", "1").code(), ResultCode.NO_SUCH_ATTRIBUTE);
        RecordingSink missing = compare("uid=ghost," + PEOPLE, "sn", "x");
        assertEquals(missing.code(), ResultCode.NO_SUCH_OBJECT);
        assertEquals(missing.result().getMatchedDN(), PEOPLE);
    }

    /** A password cannot be guessed by comparing: the shipped rules keep userPassword from all but root. */
    @Test
    public void aPasswordIsNotComparedForOthersThanRoot() {
        assertEquals(compare(user(3), "userPassword", "password").code(), ResultCode.INSUFFICIENT_ACCESS_RIGHTS);
    }
}
