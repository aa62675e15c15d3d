package io.bindfirst.server.access.aci;

import java.nio.charset.StandardCharsets;

import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.Entry;

import io.bindfirst.server.core.FilterFuzzTarget;
import io.bindfirst.server.fuzz.Fuzzing;

/**
 * Jazzer target: an {@code aci} value as a client writes it, compiled by {@link AciParser} as the access policy does
 * on an add or modify (a global ACI) and when it loads one held by an entry, then asked whether it applies to an
 * entry (its target, scope and {@code targetfilter}). Only
 * {@link AciParser.AciSyntaxException} is expected (the write is refused with invalidAttributeSyntax); anything else
 * is a finding.
 */
public final class AciFuzzTarget {
    private static final DN HOLDER = DN.valueOf("ou=People,dc=example,dc=com");
    private static AciParser parser;
    private static Entry entry;

    private AciFuzzTarget() {
    }

    public static void fuzzerInitialize() {
        parser = new AciParser(Fuzzing.serverSchema());
        entry = FilterFuzzTarget.sampleEntry();
    }

    public static void fuzzerTestOneInput(byte[] data) throws Exception {
        String text = new String(data, StandardCharsets.UTF_8);
        Fuzzing.withinAllowance(data.length, () -> {
            try {
                parser.parse(text, null).appliesTo(entry); // as a global ACI
                parser.parse(text, HOLDER).appliesTo(entry); // as one held by an entry
            } catch (AciParser.AciSyntaxException e) {
                // the documented answer: the write is refused, the message says why
            }
        });
    }
}
