package io.bindfirst.server.core;

import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.GeneralizedTime;
import org.forgerock.opendj.ldap.LinkedAttribute;
import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.auth.AuthenticationInfo;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.Backends;
import io.bindfirst.server.core.write.WriteException;

/** What add, delete, modify and modify DN share: finding the backend, and the operational attributes. */
final class WriteSupport {
    private WriteSupport() {
    }

    /** The backend that holds {@code dn}, or a {@code noSuchObject} that names it. */
    static Backend backendFor(Backends backends, DN dn) throws BackendException {
        Backend b = backends.backendFor(dn);
        if (b == null) {
            throw new BackendException(ResultCode.NO_SUCH_OBJECT,
                    "The entry " + dn + " is not in any naming context of this server");
        }
        return b;
    }

    /** Sets {@code modifiersName} and {@code modifyTimestamp} (RFC 4512 3.4) on an entry being written. */
    static void stampModified(Entry e, AuthenticationInfo who, Schema schema) {
        replace(e, "modifiersName", nameOf(who), schema);
        replace(e, "modifyTimestamp", GeneralizedTime.currentTime().toString(), schema);
    }

    /** Sets {@code creatorsName}, {@code createTimestamp} and {@code entryUUID} on a new entry. */
    static void stampCreated(Entry e, AuthenticationInfo who, Schema schema) {
        replace(e, "creatorsName", nameOf(who), schema);
        replace(e, "createTimestamp", GeneralizedTime.currentTime().toString(), schema);
        replace(e, "entryUUID", java.util.UUID.randomUUID().toString(), schema);
    }

    private static String nameOf(AuthenticationInfo who) {
        return who.isAnonymous() ? "" : who.authenticationDN().toString();
    }

    private static void replace(Entry e, String name, String value, Schema schema) {
        e.replaceAttribute(new LinkedAttribute(AttributeDescription.valueOf(name, schema), value));
    }

    /** A schema or modification failure as the backend's update function must report it. */
    static BackendException toBackend(WriteException e) {
        return new BackendException(e.resultCode(), e.getMessage());
    }
}
