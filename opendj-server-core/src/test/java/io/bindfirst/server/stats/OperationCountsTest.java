package io.bindfirst.server.stats;

import static org.testng.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.ResultCode;
import org.testng.annotations.Test;

import io.bindfirst.server.plugin.OperationType;

public class OperationCountsTest {

    @Test
    public void operationsAreCountedByTypeAndResult() {
        OperationCounts c = new OperationCounts();
        c.completed(OperationType.BIND, ResultCode.SUCCESS);
        c.completed(OperationType.BIND, ResultCode.INVALID_CREDENTIALS);
        c.completed(OperationType.BIND, ResultCode.INVALID_CREDENTIALS);
        c.completed(OperationType.SEARCH, ResultCode.SIZE_LIMIT_EXCEEDED);
        assertEquals(c.count(OperationType.BIND), 3);
        assertEquals(c.count(OperationType.BIND, ResultCode.INVALID_CREDENTIALS), 2);
        assertEquals(c.count(OperationType.SEARCH, ResultCode.SUCCESS), 0);
        assertEquals(c.total(), 4);
        List<String> seen = new ArrayList<>();
        c.forEachCounted((type, result, n) -> seen.add(type + " " + result + " " + n));
        // Every type's success, even at zero; the other results once counted.
        assertEquals(seen, List.of("BIND success 1", "BIND invalidCredentials 2", "SEARCH success 0",
                "SEARCH sizeLimitExceeded 1", "COMPARE success 0", "ADD success 0", "DELETE success 0",
                "MODIFY success 0", "MODIFY_DN success 0", "EXTENDED success 0"));
    }

    @Test
    public void codesWithoutAnRfcNameCountAsOther() {
        OperationCounts c = new OperationCounts();
        c.completed(OperationType.MODIFY, ResultCode.OTHER);
        c.completed(OperationType.MODIFY, ResultCode.VIRTUAL_LIST_VIEW_ERROR);
        c.completed(OperationType.MODIFY, ResultCode.valueOf(16_654));
        c.completed(OperationType.MODIFY, ResultCode.CLIENT_SIDE_SERVER_DOWN); // a negative number
        assertEquals(c.count(OperationType.MODIFY, ResultCode.OTHER), 4);
        assertEquals(OperationCounts.resultName(ResultCode.valueOf(16_654)), "other");
        assertEquals(OperationCounts.resultName(ResultCode.CANCELLED), "canceled");
        assertEquals(OperationCounts.resultName(ResultCode.INVALID_DN_SYNTAX), "invalidDNSyntax");
    }
}
