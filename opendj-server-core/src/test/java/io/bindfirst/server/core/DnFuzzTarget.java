package io.bindfirst.server.core;

import java.nio.charset.StandardCharsets;

import org.forgerock.i18n.LocalizedIllegalArgumentException;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;

import io.bindfirst.server.fuzz.Fuzzing;

/**
 * Jazzer target: a DN in its string form (RFC 4514) parsed with the server's schema, as a bind, a proxied
 * authorization identity, an ACI's {@code userdn} or a password modify's identity is, then normalized (the
 * backends' keys) and taken apart as the server does (parent, RDN). Only {@link LocalizedIllegalArgumentException}
 * is expected: the client gets invalidDNSyntax.
 */
public final class DnFuzzTarget {
    private static Schema schema;

    private DnFuzzTarget() {
    }

    public static void fuzzerInitialize() {
        schema = Fuzzing.serverSchema();
    }

    public static void fuzzerTestOneInput(byte[] data) throws Exception {
        String text = new String(data, StandardCharsets.UTF_8);
        Fuzzing.withinAllowance(data.length, () -> {
            DN dn;
            try {
                dn = DN.valueOf(text, schema);
            } catch (LocalizedIllegalArgumentException e) {
                return;
            }
            dn.toString();
            dn.toNormalizedByteString();
            dn.toNormalizedUrlSafeString();
            if (!dn.isRootDN()) {
                dn.rdn().toString();
                dn.parent().toNormalizedByteString();
            }
        });
    }
}
