package io.bindfirst.server.log;

/**
 * One access-log line before formatting. Built on the worker from values the operation already has;
 * formatting happens on the log writer thread.
 *
 * @param epochMillis when the operation (or connection event) finished
 * @param kind {@code BIND}, {@code SEARCH}, {@code EXTENDED}, ..., or {@code CONNECT}/{@code DISCONNECT}
 * @param connectionId the connection number
 * @param operationId the operation number on the connection, -1 for connection events
 * @param messageId the LDAP message ID, -1 for connection events
 * @param dn the target DN (bind DN, search base, ...); never a password
 * @param resultCode the LDAP result code, -1 for connection events
 * @param etimeNanos elapsed time from decode to response
 * @param details further {@code key=value} pairs already formatted (e.g. {@code nentries=1}), or empty
 */
public record AccessRecord(long epochMillis, String kind, long connectionId, long operationId, int messageId,
                           String dn, int resultCode, long etimeNanos, String details) {

    public static AccessRecord connection(String kind, long connectionId, String details) {
        return new AccessRecord(System.currentTimeMillis(), kind, connectionId, -1, -1, null, -1, 0, details);
    }
}
