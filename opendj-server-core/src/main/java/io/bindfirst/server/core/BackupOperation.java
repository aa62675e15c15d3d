package io.bindfirst.server.core;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.requests.ExtendedRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.access.AccessDecision;
import io.bindfirst.server.backend.Backend;
import io.bindfirst.server.backend.BackendConfig;
import io.bindfirst.server.backend.BackendException;
import io.bindfirst.server.backend.BackupManifest;
import io.bindfirst.server.log.AccessRecord;

/**
 * The backup extended operation ({@link BackupRequest}): the server copies a consistent state of one of its
 * backends into a directory of its host while it goes on serving writes (bin/backup sends it). Root users
 * only, as the access policy decides. The copying runs in the slow lane, away from the workers.
 */
public final class BackupOperation extends ExtendedRequestOperation {

    public BackupOperation(ServerContext server, Session session, int messageId, ExtendedRequest<?> request) {
        super(server, session, messageId, request);
    }

    @Override
    protected Result execute() {
        AccessDecision access = server.accessPolicy().mayBackUp(accessRequester());
        if (!access.allowed()) {
            return errorResult(ResultCode.INSUFFICIENT_ACCESS_RIGHTS, access.message());
        }
        BackupRequest backup = BackupRequest.decode(request.getValue());
        if (backup == null) {
            return errorResult(ResultCode.PROTOCOL_ERROR,
                    "The backup request's value must be a SEQUENCE of the backend id and the directory");
        }
        Path dir;
        try {
            dir = Path.of(backup.directory());
        } catch (InvalidPathException e) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "Not a path: " + backup.directory());
        }
        if (!dir.isAbsolute()) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM,
                    "The backup directory must be an absolute path on the server's host, not " + dir);
        }
        Optional<BackendConfig> config = server.config().backends().stream()
                .filter(b -> b.id().equalsIgnoreCase(backup.backendId())).findFirst();
        if (config.isEmpty() || config.get().baseDNs().isEmpty()) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "There is no backend '" + backup.backendId() + "'");
        }
        Backend backend = server.backends().backendFor(config.get().baseDNs().get(0));
        if (backend == null) {
            return errorResult(ResultCode.UNWILLING_TO_PERFORM, "Backend '" + backup.backendId() + "' is not open");
        }
        String id = config.get().id();
        return onSlowLane(() -> {
            try {
                BackupManifest m = backend.maintenance().backup(dir.normalize());
                return Responses.newGenericExtendedResult(ResultCode.SUCCESS).setDiagnosticMessage(String.format(
                        Locale.ROOT, "Backed up backend %s to %s: %d files, %,d bytes", id, dir.normalize(),
                        m.files().size(), m.bytes()));
            } catch (BackendException e) {
                return errorResult(e.resultCode(), e.getMessage());
            }
        });
    }

    @Override
    protected String logDetails(Result result) {
        return AccessRecord.quoted("oid", BackupRequest.OID);
    }
}
