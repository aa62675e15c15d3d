package io.bindfirst.server.metrics;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertNull;
import static org.testng.Assert.assertTrue;

import org.testng.annotations.Test;

/** The queries a load balancer's probe of {@code /healthy} may carry, and the mistakes it is told of. */
public class HealthQueryTest {

    @Test
    public void noQueryAsksForAnyNodeThatAnswers() {
        for (String none : new String[] {null, ""}) {
            HealthQuery q = HealthQuery.parse(none);
            assertEquals(q.role(), Health.Role.ANY);
            assertNull(q.error());
        }
    }

    @Test
    public void aRoleAndForAReplicaItsLag() {
        assertEquals(HealthQuery.parse("role=master").role(), Health.Role.MASTER);
        assertEquals(HealthQuery.parse("role=Replica").role(), Health.Role.REPLICA);
        assertEquals(HealthQuery.parse("role=replica").maxLagMillis(), -1, "any lag");
        HealthQuery q = HealthQuery.parse("role=replica&max-lag-ms=2000");
        assertEquals(q.role(), Health.Role.REPLICA);
        assertEquals(q.maxLagMillis(), 2000);
        assertNull(q.error());
    }

    @Test
    public void aMistakeIsToldWithTheWayToAsk() {
        String[][] wrong = {
            {"role=leader", "role 'leader' is not master or replica"},
            {"role=replica&max-lag-ms=soon", "max-lag-ms 'soon' is not a number"},
            {"role=replica&max-lag-ms=-5", "max-lag-ms '-5' is not a number"},
            {"max-lag-ms=10", "max-lag-ms goes with role=replica"},
            {"role=master&max-lag-ms=10", "max-lag-ms goes with role=replica"},
            {"verbose", "unknown parameter 'verbose'"},
        };
        for (String[] w : wrong) {
            String error = HealthQuery.parse(w[0]).error();
            assertTrue(error != null && error.startsWith(w[1]) && error.contains("/healthy?role=master"),
                    w[0] + ": " + error);
        }
    }
}
