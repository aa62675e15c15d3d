package io.bindfirst.it.conformance;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;

import com.unboundid.ldap.sdk.Filter;

/**
 * Filters for the differential search test: a fixed list for the corner cases (every filter type and
 * option, the empty AND and OR, attributes without the matching rule a filter needs), then random ones
 * built from the corpus's own values (so most hit something), nested up to three levels.
 */
final class SearchFilters {
    /** Attributes with caseIgnore-like equality and substrings rules. */
    private static final String[] STRINGS = {"cn", "sn", "givenName", "description", "l", "title", "ou",
        "displayName", "employeeNumber", "businessCategory", "serialNumber", "roomNumber", "mail", "uid",
        "homeDirectory", "name"};
    private static final String[] DNS = {"member", "manager", "owner"};
    private static final String[] ORDERED = {"uidNumber", "gidNumber", SearchCorpus.TIME, "sn", "cn", "ou",
        "employeeNumber", "l", "uid"};
    private static final String[] PRESENT = {"objectClass", "cn", "sn", "givenName", "mail", "telephoneNumber",
        "description", "uidNumber", SearchCorpus.TIME, "member", "manager", "owner", "serialNumber", "name",
        "l", "roomNumber", "displayName", "noSuchAttribute", "businessCategory", "seeAlso", "distinguishedName"};
    private static final String[] RULES = {"caseExactMatch", "caseIgnoreMatch", "2.5.13.2", "2.5.13.5",
        "caseIgnoreSubstringsMatch", "caseExactSubstringsMatch", "caseIgnoreOrderingMatch"};

    private final SearchCorpus corpus;
    private final Random random;

    SearchFilters(SearchCorpus corpus, long seed) {
        this.corpus = corpus;
        this.random = new Random(seed ^ 0x5eed);
    }

    /** The fixed filters, then {@code randomCount} random ones; each parses (they are checked here). */
    List<String> generate(int randomCount) {
        Set<String> out = new LinkedHashSet<>(fixed());
        for (String a : PRESENT) {
            out.add("(" + a + "=*)");
        }
        for (String a : STRINGS) {
            for (int i = 0; i < 4; i++) {
                out.add(substrings(a));
            }
            out.add(equality(a));
            out.add(approx(a));
        }
        for (String a : ORDERED) {
            out.add(ordering(a, true));
            out.add(ordering(a, false));
        }
        int target = out.size() + randomCount;
        while (out.size() < target) {
            out.add(random(3));
        }
        List<String> list = new ArrayList<>(out);
        for (String f : list) {
            try {
                Filter.create(f);
            } catch (Exception e) {
                throw new AssertionError("the generator wrote an invalid filter " + f, e);
            }
        }
        return list;
    }

    private List<String> fixed() {
        String someUser = corpus.values("uid").get(0);
        return List.of("(&)", "(|)", "(!(&))", "(!(|))", "(&(|)(objectClass=*))", "(|(&)(noSuchAttribute=x))",
                "(&(objectClass=inetOrgPerson)(!(givenName=*)))", "(!(objectClass=person))",
                "(objectClass=PERSON)", "(objectclass=top)", "(objectClass=posixaccount)",
                "(ou:dn:=Sub)", "(ou:dn:=sub)", "(ou:dn:caseExactMatch:=Sub)", "(ou:dn:caseExactMatch:=sub)",
                "(:dn:2.5.13.2:=team 0)", "(ou:dn:=diff)", "(&(ou:dn:=Team 1)(objectClass=device))",
                "(uid:dn:=" + someUser + ")", "(cn:=Alice Smith)", "(sn:caseExactMatch:=Smith)",
                "(sn:caseExactMatch:=SMITH)", "(sn:2.5.13.5:=smith)", "(:caseExactMatch:=Smith)",
                "(:caseIgnoreMatch:=paris)", "(l:caseIgnoreMatch:=PARIS)", "(uidNumber:integerMatch:=1050)",
                "(uidNumber:integerOrderingMatch:=5000)", "(" + SearchCorpus.TIME
                        + ":generalizedTimeOrderingMatch:=20220101000000Z)",
                "(sn=smith)", "(sn=  smith  )", "(cn=alice  smith)",
                "(sn=straße)", "(sn=STRASSE)", "(sn=strasse)", "(givenName=ilker)", "(givenName=İLKER)",
                "(givenName=élodie)", "(givenName=ÉLODIE)", "(givenName=Élodie)", "(givenName=zoe)",
                "(sn=ИВАНОВ)", "(sn=ångström)", "(description=CAFÉ)", "(description=cafe)",
                "(description=Cafe\u0301)", "(telephoneNumber=+15550100)", "(telephoneNumber=+1 555 0100)",
                "(telephoneNumber=*555*)", "(telephoneNumber=+1-555*)", "(uidNumber=0)", "(uidNumber=-1)",
                "(uidNumber=01050)", "(uidNumber>=abc)", "(uidNumber<=1000)", "(uidNumber>=1000)",
                "(gidNumber<=102)", "(" + SearchCorpus.TIME + ">=2023)", "(" + SearchCorpus.TIME
                        + ">=20230101000000Z)", "(" + SearchCorpus.TIME + "<=20210615120000+0200)",
                "(" + SearchCorpus.TIME + "<=202106151200Z)", "(" + SearchCorpus.TIME + "=*)",
                "(" + SearchCorpus.TIME + ">=not a time)", "(employeeNumber>=1000)", "(employeeNumber<=5)",
                "(sn>=m)", "(sn<=m)", "(cn>=z)", "(uid<=u5)", "(mail=U1@example.COM)", "(mail=*@example.com)",
                "(mail=*EXAMPLE*)", "(homeDirectory=/HOME/u1)", "(homeDirectory=/home/*)",
                "(member=" + corpus.values("member").get(0).toUpperCase(Locale.ROOT) + ")",
                "(member=" + corpus.values("member").get(0).replace(",", " , ") + ")", "(member=*)",
                "(member=uid=*)", "(member>=a)", "(member~=" + corpus.values("member").get(0) + ")",
                "(name=paris)", "(name=*)", "(name=al*)", "(sn~=smith)", "(sn~=smyth)", "(cn~=alice smith)",
                "(l~=zurich)", "(l~=Zürich)", "(uidNumber~=1050)", "(cn=*)", "(cn=*a*a*)",
                "(cn=a*a)", "(description=*é*)", "(description=*東*)", "(sn=*ße)", "(sn=*SSE)",
                "(distinguishedName=*)", "(entryDN=" + SearchCorpus.ROOT + ")", "(roomNumber=r1*)",
                "(serialNumber=sn-1*)", "(noSuchAttribute=*)", "(noSuchAttribute>=a)",
                "(!(noSuchAttribute=x))", "(!(uidNumber>=abc))", "(objectClass=extensibleObject)",
                "(uid= *)", "(roomNumber=* *)", "(sn=*SSE)", "(givenName=ilker)", "(roomNumber=* R*)",
                "(l=*ão * Pa*)", "(uid=*u*8 *)", "(mail:caseIgnoreMatch:=u1@example.com)",
                "(serialNumber:2.5.13.5:=" + corpus.values("serialNumber")
                        .get(0) + ")");
    }

    private String random(int depth) {
        int choice = random.nextInt(depth > 0 ? 10 : 7);
        return switch (choice) {
            case 0 -> "(" + pick(PRESENT) + "=*)";
            case 1 -> equality(pick(random.nextInt(4) == 0 ? DNS : STRINGS));
            case 2 -> substrings(pick(STRINGS));
            case 3 -> ordering(pick(ORDERED), random.nextBoolean());
            case 4 -> extensible();
            case 5 -> "(" + pick(PRESENT) + "=*)";
            case 6 -> equality(random.nextBoolean() ? "telephoneNumber" : "uidNumber");
            case 7 -> "(!" + random(depth - 1) + ")";
            default -> {
                StringBuilder b = new StringBuilder(choice == 8 ? "(&" : "(|");
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    b.append(random(depth - 1));
                }
                yield b.append(')').toString();
            }
        };
    }

    private String equality(String attribute) {
        return "(" + attribute + "=" + escape(variant(value(attribute))) + ")";
    }

    private String approx(String attribute) {
        return "(" + attribute + "~=" + escape(variant(value(attribute))) + ")";
    }

    private String extensible() {
        String attribute = pick(STRINGS);
        String value = escape(variant(value(attribute)));
        return switch (random.nextInt(4)) {
            case 0 -> "(" + attribute + ":" + pick(RULES).replace("Substrings", "") + ":=" + value + ")";
            case 1 -> "(" + attribute + ":=" + value + ")";
            case 2 -> "(ou:dn:=" + escape(variant(value("ou"))) + ")";
            default -> "(:dn:" + pick(new String[] {"caseIgnoreMatch", "caseExactMatch"}) + ":="
                    + escape(variant(value("ou"))) + ")";
        };
    }

    private String ordering(String attribute, boolean greater) {
        String value = switch (attribute) {
            case "uidNumber" -> String.valueOf(random.nextInt(110_000) - 100);
            case "gidNumber" -> String.valueOf(99 + random.nextInt(7));
            default -> variant(value(attribute));
        };
        return "(" + attribute + (greater ? ">=" : "<=") + escape(value) + ")";
    }

    /** Initial, any and final parts cut from a stored value, in one of the seven combinations. */
    private String substrings(String attribute) {
        String value = variant(value(attribute));
        int[] cuts = random.ints(4, 0, value.length() + 1).sorted().toArray();
        int shape = 1 + random.nextInt(7); // bit 0 initial, bit 1 any, bit 2 final
        StringBuilder b = new StringBuilder("(").append(attribute).append('=');
        // Edge spaces only where both servers agree: before an initial part and after a final one.
        if ((shape & 1) != 0 && !value.substring(0, cuts[0]).isBlank()) {
            b.append(escape(value.substring(0, cuts[0]).stripTrailing()));
        }
        b.append('*');
        if ((shape & 2) != 0) {
            appendAny(b, value.substring(cuts[0], cuts[1]));
            appendAny(b, value.substring(cuts[1], cuts[2]));
        }
        if ((shape & 4) != 0 && !value.substring(cuts[3]).isBlank()) {
            b.append(escape(value.substring(cuts[3]).stripLeading()));
        }
        return b.append(')').toString();
    }

    private static void appendAny(StringBuilder b, String part) {
        if (!part.isBlank()) {
            b.append(escape(part.strip())).append('*');
        }
    }

    private String value(String attribute) {
        String a = attribute.equals("name") ? pick(new String[] {"cn", "sn", "l", "givenName"}) : attribute;
        List<String> values = corpus.values(a);
        if (a.equals("ou")) {
            values = corpus.values("ou");
        }
        if (values.isEmpty() || random.nextInt(12) == 0) {
            return "nomatch" + random.nextInt(10);
        }
        return values.get(random.nextInt(values.size()));
    }

    /** The value as stored, or in another case, or with extra spaces: equal under the ignore rules. */
    private String variant(String value) {
        if (value.indexOf('ß') >= 0 || value.indexOf('İ') >= 0) {
            return value; // case mappings where slapd departs from RFC 4518 (see EXPECTED)
        }
        return switch (random.nextInt(6)) {
            case 0 -> value.toUpperCase(Locale.ROOT);
            case 1 -> value.toLowerCase(Locale.ROOT);
            case 2 -> " " + value.replace(" ", "  ") + " ";
            default -> value;
        };
    }

    private <T> T pick(T[] pool) {
        return pool[random.nextInt(pool.length)];
    }

    /** RFC 4515 escaping of an assertion value. */
    static String escape(String value) {
        StringBuilder b = new StringBuilder();
        for (char c : value.toCharArray()) {
            switch (c) {
                case '*', '(', ')', '\\', '\0' -> b.append(String.format("\\%02x", (int) c));
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
