package io.bindfirst.server.backend;


import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.ResultCode;

/**
 * A backend the server serves but clients never write ({@code cn=config}, {@code cn=monitor}): every write and
 * import answers unwillingToPerform, naming the backend's first base DN.
 */
public interface ReadOnlyBackend extends Backend {

    @Override
    default void addEntry(Entry entry) throws BackendException {
        throw readOnly();
    }

    @Override
    default EntryChange modifyEntry(DN dn, EntryUpdate update) throws BackendException {
        throw readOnly();
    }

    @Override
    default Entry deleteEntry(DN dn, boolean subtree) throws BackendException {
        throw readOnly();
    }

    @Override
    default EntryChange renameEntry(DN dn, DN newDN, EntryUpdate update) throws BackendException {
        throw readOnly();
    }

    private BackendException readOnly() {
        return new BackendException(ResultCode.UNWILLING_TO_PERFORM, baseDNs().get(0) + " is read-only");
    }
}
