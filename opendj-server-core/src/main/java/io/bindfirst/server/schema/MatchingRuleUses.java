package io.bindfirst.server.schema;

import java.util.ArrayList;
import java.util.List;

import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.MatchingRule;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;

/**
 * Derives {@code matchingRuleUse} definitions (RFC 4512 4.1.4), which the SDK's filter matcher needs
 * before it evaluates an extensible match naming a rule, such as {@code (cn:caseExactMatch:=User 6)}.
 * A rule applies to every attribute type whose syntax is the rule's assertion syntax, as OpenLDAP
 * derives them. Only the standard rules (RFC 4517, RFC 4530, and the IA5 rules) get one: the SDK also
 * carries about a thousand locale collation rules, and listing every string attribute under each would
 * bloat {@code cn=schema} for no client's benefit.
 */
final class MatchingRuleUses {
    private static final String[] STANDARD_RULE_PREFIXES = {
        "2.5.13.",                      // RFC 4517
        "1.3.6.1.4.1.1466.109.114.",    // caseExactIA5Match, caseIgnoreIA5Match, caseIgnoreIA5SubstringsMatch
        "1.3.6.1.1.16.",                // RFC 4530 UUID matching
    };

    private MatchingRuleUses() {
    }

    /** The schema with a derived use for every standard rule that has none and applies to some type. */
    static Schema addDerived(Schema schema) {
        SchemaBuilder builder = new SchemaBuilder(schema);
        boolean added = false;
        for (MatchingRule rule : schema.getMatchingRules()) {
            if (!isStandard(rule.getOID()) || schema.hasMatchingRuleUse(rule.getOID())) {
                continue;
            }
            List<String> applies = new ArrayList<>();
            String syntax = rule.getSyntax().getOID();
            for (AttributeType type : schema.getAttributeTypes()) {
                if (type.getSyntax() != null && syntax.equals(type.getSyntax().getOID())) {
                    applies.add(type.getOID());
                }
            }
            if (!applies.isEmpty()) {
                String name = rule.getNameOrOID().equals(rule.getOID()) ? "" : " NAME '" + rule.getNameOrOID() + "'";
                builder.addMatchingRuleUse("( " + rule.getOID() + name + " APPLIES ( " + String.join(" $ ", applies)
                        + " ) X-ORIGIN 'derived' )", false);
                added = true;
            }
        }
        return added ? builder.toSchema() : schema;
    }

    private static boolean isStandard(String oid) {
        for (String prefix : STANDARD_RULE_PREFIXES) {
            if (oid.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
