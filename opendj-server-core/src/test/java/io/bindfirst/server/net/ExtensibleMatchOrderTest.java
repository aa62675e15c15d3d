package io.bindfirst.server.net;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.io.ASN1;
import org.forgerock.opendj.io.AbstractLDAPMessageHandler;
import org.forgerock.opendj.io.LDAP;
import org.forgerock.opendj.io.LDAPWriter;
import org.forgerock.opendj.ldap.ByteStringBuilder;
import org.forgerock.opendj.ldap.DecodeOptions;
import org.forgerock.opendj.ldap.Filter;
import org.forgerock.opendj.ldap.SearchScope;
import org.forgerock.opendj.ldap.requests.Requests;
import org.forgerock.opendj.ldap.requests.SearchRequest;
import org.testng.annotations.DataProvider;
import org.testng.annotations.Test;

/** A search's {@code :dn:} flag survives decoding (the SDK's own reader drops it). */
public class ExtensibleMatchOrderTest {
    @DataProvider
    public Object[][] filters() {
        return new Object[][] {
            {"(ou:dn:=People)"},
            {"(:dn:caseExactMatch:=Team 0)"},
            {"(ou:=People)"},
            {"(&(objectClass=person)(|(ou:dn:=a)(!(cn:dn:caseIgnoreMatch:=b)))(uid=x))"},
            {"(cn=*\\84\\01\\ff*)"}, // the flag's bytes inside a value: parsed, nothing to move
        };
    }

    @Test(dataProvider = "filters")
    public void theDecodedFilterIsTheOneSent(String filter) throws Exception {
        SearchRequest sent = Requests.newSearchRequest("dc=example,dc=com", SearchScope.WHOLE_SUBTREE, filter,
                "cn", "1.1");
        ByteStringBuilder bytes = new ByteStringBuilder();
        LDAPWriter<?> writer = LDAP.getWriter(ASN1.getWriter(bytes), 0);
        writer.writeSearchRequest(7, sent);
        List<SearchRequest> received = new ArrayList<>();
        new RequestReader(new DecodeOptions()).read(ASN1.getReader(bytes), new AbstractLDAPMessageHandler() {
            @Override
            public void searchRequest(int messageID, SearchRequest request) {
                received.add(request);
            }
        });
        assertEquals(received.size(), 1);
        assertEquals(received.get(0).getFilter().toString(), Filter.valueOf(filter).toString());
        assertEquals(received.get(0).getAttributes(), List.of("cn", "1.1"));
        assertEquals(received.get(0).getName().toString(), "dc=example,dc=com");
    }
}
