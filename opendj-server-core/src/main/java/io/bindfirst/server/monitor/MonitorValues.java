package io.bindfirst.server.monitor;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.LinkedHashMapEntry;
import org.forgerock.opendj.ldap.schema.Schema;

/**
 * The entry a {@link MonitorEntry} fills in, with attribute descriptions taken from the server schema, so
 * filters compare its integers as integers and attribute selection finds its types as it finds any other.
 */
public final class MonitorValues {
    private final Schema schema;
    private final Entry entry;

    MonitorValues(Schema schema, DN name) {
        this.schema = schema;
        this.entry = new LinkedHashMapEntry(name);
        add("objectClass", "top", "ds-monitor-entry", "extensibleObject");
        add("cn", name.rdn().getFirstAVA().getAttributeValue().toString());
    }

    public MonitorValues add(String attribute, long value) {
        return add(attribute, Long.toString(value));
    }

    public MonitorValues add(String attribute, boolean value) {
        return add(attribute, value ? "TRUE" : "FALSE");
    }

    /** A GeneralizedTime value in UTC. */
    public MonitorValues addTime(String attribute, long epochMillis) {
        return add(attribute, GeneralizedTime.valueOf(epochMillis).toString());
    }

    /** One attribute with these values; none adds nothing. */
    public MonitorValues add(String attribute, String... values) {
        if (values.length > 0) {
            entry.addAttribute(new LinkedAttribute(AttributeDescription.valueOf(attribute, schema), (Object[]) values));
        }
        return this;
    }

    Entry entry() {
        return entry;
    }
}
