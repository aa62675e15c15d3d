package io.bindfirst.server.plugin;

/** The LDAP operations plugins can subscribe to. */
public enum OperationType {
    BIND, SEARCH, COMPARE, ADD, DELETE, MODIFY, MODIFY_DN, EXTENDED
}
