package io.bindfirst.server.log;

import static org.testng.Assert.assertEquals;
import static org.testng.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.testng.annotations.AfterClass;
import org.testng.annotations.Test;

import io.bindfirst.server.testsupport.TempFolders;

public class FileAccessLogTest {

    private final TempFolders temp = new TempFolders();

    @AfterClass(alwaysRun = true)
    public void deleteTempFolders() {
        temp.close();
    }

    @Test
    public void formatsOneLinePerOperation() {
        StringBuilder b = new StringBuilder();
        FileAccessLog.format(
                new AccessRecord(0L, "BIND", 3, 0, 1, "uid=a,dc=x", 0, 52_345, "authDN=\"uid=a,dc=x\""), b);
        assertEquals(b.toString(),
                "[01/Jan/1970:00:00:00 +0000] BIND conn=3 op=0 msgID=1 dn=\"uid=a,dc=x\" result=0"
                        + " authDN=\"uid=a,dc=x\" etime=0.052\n");
        b.setLength(0);
        FileAccessLog.format(new AccessRecord(0L, "SEARCH", 3, 1, 2, "dc=x", 4, 1_234_567_890L, ""), b);
        assertTrue(b.toString().endsWith(" SEARCH conn=3 op=1 msgID=2 dn=\"dc=x\" result=4 etime=1234.567\n"),
                b.toString());
        b.setLength(0);
        FileAccessLog.format(AccessRecord.connection("DISCONNECT", 7, "reason=\"Client Unbind\""), b);
        assertTrue(b.toString().matches("\\[[^]]+\\] DISCONNECT conn=7 reason=\"Client Unbind\"\\n"), b.toString());
    }

    @Test
    public void clientTextCannotForgeLines() {
        StringBuilder b = new StringBuilder();
        FileAccessLog.format(new AccessRecord(0L, "BIND", 1, 0, 1, "cn=x\n[01/Jan/1970] BIND \"evil\"", 49, 0, ""), b);
        assertEquals(b.toString().chars().filter(c -> c == '\n').count(), 1L);
        assertTrue(b.toString().contains("dn=\"cn=x\\0a[01/Jan/1970] BIND \\\"evil\\\"\""), b.toString());
    }

    @Test
    public void aDetailHoldingClientTextCannotForgeAFieldOrALine() {
        String filter = "(cn=a\" result=0 x=\"\n[01/Jan/1970] BIND)";
        String details = "scope=sub " + AccessRecord.quoted("filter", filter) + " nentries=0";
        StringBuilder b = new StringBuilder();
        FileAccessLog.format(new AccessRecord(0L, "SEARCH", 1, 0, 1, "dc=x", 0, 0, details), b);
        assertEquals(b.toString().chars().filter(c -> c == '\n').count(), 1L, b.toString());
        assertTrue(b.toString().contains("filter=\"(cn=a\\\" result=0 x=\\\"\\0a[01/Jan/1970] BIND)\""),
                b.toString());
        List<String> read = new java.util.ArrayList<>();
        AccessRecord.forEachDetail(details, (k, v, quoted) -> read.add(k + "|" + v + "|" + quoted));
        assertEquals(read, List.of("scope|sub|false", "filter|" + filter + "|true", "nentries|0|false"));
    }

    @Test
    public void jsonLinesCarryTheSameFieldsEscaped() {
        StringBuilder b = new StringBuilder();
        AccessLogFormat.JSON.format(new AccessRecord(1_763_968_731_123L, "SEARCH", 3, 1, 2, "dc=\"x\"", 0,
                1_234_567L, "scope=sub " + AccessRecord.quoted("filter", "(cn=a\nb)") + " nentries=12"), b,
                new AccessLogFormat.Clock());
        assertEquals(b.toString(), "{\"time\":\"2025-11-24T07:18:51.123Z\",\"type\":\"SEARCH\",\"conn\":3,\"op\":1,"
                + "\"msgID\":2,\"dn\":\"dc=\\\"x\\\"\",\"result\":0,\"scope\":\"sub\",\"filter\":\"(cn=a\\u000ab)\","
                + "\"nentries\":12,\"etime\":1.234}\n");
        b.setLength(0);
        AccessLogFormat.JSON.format(AccessRecord.connection("DISCONNECT", 7, AccessRecord.quoted("reason", "Bye")), b,
                new AccessLogFormat.Clock());
        assertTrue(b.toString().matches("\\{\"time\":\"[^\"]+Z\",\"type\":\"DISCONNECT\",\"conn\":7,"
                + "\"reason\":\"Bye\"}\\n"), b.toString());
        assertEquals(AccessLogFormat.named("JSON"), AccessLogFormat.JSON);
        assertEquals(AccessLogFormat.named("xml"), null);
    }

    @Test
    public void closeWritesEverythingQueued() throws Exception {
        Path dir = temp.create("access-log");
        Path file = dir.resolve("logs/access");
        FileAccessLog log = new FileAccessLog(file, LogRotation.NEVER, 10_000);
        for (int i = 0; i < 5_000; i++) {
            log.log(new AccessRecord(0L, "BIND", i, 0, 1, "uid=u" + i, 0, 1000, ""));
        }
        log.close();
        List<String> lines = Files.readAllLines(file);
        assertEquals(lines.size(), 5_000);
        assertTrue(lines.get(4_999).contains("conn=4999 "));
    }

    /** A logger that blocked per record would hang here (the time-out), not just run slow. */
    @Test(timeOut = 60_000)
    public void aFullQueueDropsAndSaysSoInsteadOfBlocking() throws Exception {
        Path file = temp.create("access-log").resolve("access");
        FileAccessLog log = new FileAccessLog(file, LogRotation.NEVER, 1);
        for (int i = 0; i < 100_000; i++) {
            log.log(new AccessRecord(0L, "BIND", i, 0, 1, null, 0, 0, ""));
        }
        log.close();
        String text = Files.readString(file);
        assertTrue(text.contains("DROPPED records="), "dropped records must be reported");
    }
}
