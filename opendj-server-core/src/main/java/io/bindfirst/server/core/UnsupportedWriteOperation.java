package io.bindfirst.server.core;

import java.util.List;

import org.forgerock.opendj.ldap.ResultCode;
import org.forgerock.opendj.ldap.controls.Control;
import org.forgerock.opendj.ldap.requests.AddRequest;
import org.forgerock.opendj.ldap.requests.DeleteRequest;
import org.forgerock.opendj.ldap.requests.ModifyDNRequest;
import org.forgerock.opendj.ldap.requests.ModifyRequest;
import org.forgerock.opendj.ldap.responses.Responses;
import org.forgerock.opendj.ldap.responses.Result;

import io.bindfirst.server.ServerContext;
import io.bindfirst.server.net.ClientConnection;

/**
 * Add, delete, modify and modify DN until write support lands (issue #3): answered with a clear
 * {@code unwillingToPerform}, so clients get a proper result rather than a dropped connection.
 */
public final class UnsupportedWriteOperation extends Operation {
    private final String kind;
    private final String dn;
    private final List<Control> controls;

    private UnsupportedWriteOperation(ServerContext server, ClientConnection connection, int messageId,
                                      String kind, String dn, List<Control> controls) {
        super(server, connection, messageId);
        this.kind = kind;
        this.dn = dn;
        this.controls = controls;
    }

    public static Operation add(ServerContext s, ClientConnection c, int id, AddRequest r) {
        return new UnsupportedWriteOperation(s, c, id, "ADD", r.getName().toString(), r.getControls());
    }

    public static Operation delete(ServerContext s, ClientConnection c, int id, DeleteRequest r) {
        return new UnsupportedWriteOperation(s, c, id, "DELETE", r.getName().toString(), r.getControls());
    }

    public static Operation modify(ServerContext s, ClientConnection c, int id, ModifyRequest r) {
        return new UnsupportedWriteOperation(s, c, id, "MODIFY", r.getName().toString(), r.getControls());
    }

    public static Operation modifyDN(ServerContext s, ClientConnection c, int id, ModifyDNRequest r) {
        return new UnsupportedWriteOperation(s, c, id, "MODDN", r.getName().toString(), r.getControls());
    }

    @Override
    protected List<Control> requestControls() {
        return controls;
    }

    @Override
    protected Result execute() {
        return errorResult(ResultCode.UNWILLING_TO_PERFORM,
                "This server does not support write operations yet");
    }

    @Override
    protected Result errorResult(ResultCode code, String message) {
        return Responses.newResult(code).setDiagnosticMessage(message);
    }

    @Override
    protected String kind() {
        return kind;
    }

    @Override
    protected String logDN() {
        return dn;
    }
}
