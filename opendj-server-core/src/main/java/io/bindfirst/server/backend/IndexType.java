package io.bindfirst.server.backend;

/**
 * The kinds of attribute index a backend may keep, each configured on the backend's entry by its own
 * attribute ({@code ds-cfg-equality-index: cn}, {@code ds-cfg-substring-index: cn}, ...), the way OpenDJ
 * names them in {@code ds-cfg-index-type}.
 */
public enum IndexType {
    /** Normalized value to entries: {@code (cn=x)}. */
    EQUALITY("ds-cfg-equality-index"),
    /** Entries holding the attribute: {@code (cn=*)}. */
    PRESENCE("ds-cfg-presence-index"),
    /** Three-character pieces of the prepared value to entries: {@code (cn=*mit*)}. */
    SUBSTRING("ds-cfg-substring-index"),
    /** Ordering-normalized value to entries, scanned as a range: {@code (uidNumber>=1000)}. */
    ORDERING("ds-cfg-ordering-index");

    private final String configAttribute;

    IndexType(String configAttribute) {
        this.configAttribute = configAttribute;
    }

    /** The backend entry's attribute that lists the attributes with this index. */
    public String configAttribute() {
        return configAttribute;
    }
}
