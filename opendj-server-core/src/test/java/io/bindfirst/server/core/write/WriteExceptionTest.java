package io.bindfirst.server.core.write;

import static org.testng.Assert.assertEquals;

import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

public class WriteExceptionTest {

    @Test
    public void carriesTheResultCodeAndTheClientMessage() {
        WriteException e = new WriteException(ResultCode.NOT_ALLOWED_ON_RDN, "Entry uid=x cannot be modified: ...");
        assertEquals(e.resultCode(), ResultCode.NOT_ALLOWED_ON_RDN);
        assertEquals(e.getMessage(), "Entry uid=x cannot be modified: ...");
    }
}
