package io.bindfirst.server.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.forgerock.i18n.LocalizableMessage;
import org.forgerock.opendj.ldap.AVA;
import org.forgerock.opendj.ldap.Attribute;
import org.forgerock.opendj.ldap.AttributeDescription;
import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.Entry;
import org.forgerock.opendj.ldap.schema.AttributeType;
import org.forgerock.opendj.ldap.schema.Schema;
import org.forgerock.opendj.ldap.schema.SchemaBuilder;
import org.forgerock.opendj.ldap.schema.SchemaOptions;
import org.forgerock.opendj.ldap.schema.SchemaValidationPolicy;
import org.forgerock.opendj.ldap.schema.UnknownSchemaElementException;
import org.forgerock.opendj.ldif.LDIFEntryReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the server schema from the subschema LDIF files of a directory (normally {@code config/schema}).
 *
 * <p>The SDK's built-in core schema (all matching rules and syntaxes, the RFC 4512 operational types and
 * part of the RFC 4519 user schema) is the starting point. Every {@code *.ldif} file of the directory is
 * read in file-name order; each must hold subschema entries ({@code objectClass: subschema}) whose
 * {@code ldapSyntaxes}, {@code matchingRules}, {@code attributeTypes}, {@code objectClasses},
 * {@code matchingRuleUse}, {@code nameForms}, {@code dITContentRules} and {@code dITStructureRules} values
 * are RFC 4512 definitions.
 *
 * <p>A definition from the files replaces a built-in one with the same OID (or, for DIT structure rules,
 * the same rule ID). If one of its names belongs to a built-in element with a different OID, that
 * built-in element is dropped, so that the name means what the files say. The files themselves must not
 * define the same OID or name twice.
 *
 * <p>Nothing is skipped silently: a value that does not parse, an attribute other than the definition
 * attributes (apart from {@code objectClass} and the naming attribute), and every warning the SDK reports
 * while checking the combined schema (an unknown superior, matching rule or syntax, a name shared by two
 * elements, ...) make {@link #load} fail with a {@link SchemaLoadException} that names the file and the
 * definition. The built-in schema has no warnings, so every warning comes from the files.
 *
 * <p>The result is a strict schema: looking up an unknown attribute type or object class fails instead
 * of yielding a placeholder, and entries can be checked with
 * {@link Schema#validateEntry(Entry, SchemaValidationPolicy, Collection)}.
 */
public final class SchemaLoader {

    private static final Logger logger = LoggerFactory.getLogger(SchemaLoader.class);

    private static final String OBJECT_CLASS_OID = "2.5.4.0";
    private static final String SUBSCHEMA_OID = "2.5.20.1";

    private SchemaLoader() {
    }

    /**
     * Reads every {@code *.ldif} file of {@code schemaDirectory} (in file-name order) on top of the SDK's
     * core schema and returns the resulting strict schema.
     *
     * @throws SchemaLoadException if the directory cannot be read, holds no schema file, or a file or
     *         definition is invalid or makes the schema inconsistent; the message names the file and the
     *         definition
     */
    public static Schema load(Path schemaDirectory) throws SchemaLoadException {
        long start = System.nanoTime();
        List<Path> files = listSchemaFiles(schemaDirectory);
        Schema core = Schema.getCoreSchema();
        Schema strictCore = core.asStrictSchema();

        List<Definition> definitions = new ArrayList<>();
        for (Path file : files) {
            definitions.addAll(readDefinitions(file, core));
        }
        checkNoDuplicates(definitions);

        Map<Kind, Set<String>> ownKeys = ownKeys(definitions);
        SchemaBuilder builder = newBuilder(core);
        SpacedStringRules.replace(builder, core);
        for (Definition definition : definitions) {
            add(builder, definition);
            dropBuiltInNameClashes(builder, strictCore, definition, ownKeys, true);
        }
        Schema schema = builder.toSchema();
        Collection<LocalizableMessage> warnings = schema.getWarnings();
        if (!warnings.isEmpty()) {
            throw unusableSchema(schemaDirectory, files, definitions, warnings, core);
        }
        Schema result = MatchingRuleUses.addDerived(schema).asStrictSchema();

        if (logger.isInfoEnabled()) {
            long replaced = definitions.stream().filter(d -> d.kind.isBuiltIn(strictCore, d.key)).count();
            logger.info("Loaded schema from {}: {} files, {} definitions ({} replace built-in ones) in {} ms",
                    schemaDirectory, files.size(), definitions.size(), replaced,
                    (System.nanoTime() - start) / 1_000_000);
        }
        return result;
    }

    // ---------------------------------------------------------------------------------------------
    // Reading the files
    // ---------------------------------------------------------------------------------------------

    private static List<Path> listSchemaFiles(Path directory) throws SchemaLoadException {
        if (!Files.isDirectory(directory)) {
            throw new SchemaLoadException("Schema directory " + directory + " does not exist or is not a directory");
        }
        List<Path> files;
        try (Stream<Path> entries = Files.list(directory)) {
            files = entries
                    .filter(p -> p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".ldif"))
                    .filter(Files::isRegularFile)
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new SchemaLoadException("Cannot list schema directory " + directory + ": " + e.getMessage(), e);
        }
        if (files.isEmpty()) {
            throw new SchemaLoadException("Schema directory " + directory + " contains no *.ldif schema file");
        }
        return files;
    }

    private static List<Definition> readDefinitions(Path file, Schema core) throws SchemaLoadException {
        List<Definition> definitions = new ArrayList<>();
        int entries = 0;
        try (InputStream in = Files.newInputStream(file);
             LDIFEntryReader reader = new LDIFEntryReader(in)) {
            // Read against the empty schema: every attribute is then a placeholder compared byte for byte.
            // Against the core schema, attributeTypes (objectIdentifierFirstComponentMatch) would silently
            // merge two different definitions that share an OID, hiding the duplicate.
            reader.setSchema(Schema.getEmptySchema().asNonStrictSchema())
                    .setSchemaValidationPolicy(SchemaValidationPolicy.ignoreAll());
            while (reader.hasNext()) {
                Entry entry = reader.readEntry();
                entries++;
                definitions.addAll(definitionsOf(file, entry, core.asNonStrictSchema()));
            }
        } catch (IOException e) {
            // DecodeException (malformed LDIF) is an IOException; its message gives the line.
            throw new SchemaLoadException(file + ": cannot read schema file: " + e.getMessage(), e);
        }
        if (entries == 0) {
            throw new SchemaLoadException(file + ": schema file contains no entry");
        }
        return definitions;
    }

    /** The definitions in one entry; attribute names are resolved in the (non-strict) core schema. */
    private static List<Definition> definitionsOf(Path file, Entry entry, Schema core) throws SchemaLoadException {
        List<Definition> definitions = new ArrayList<>();
        boolean subschema = false;
        for (Attribute attribute : entry.getAllAttributes()) {
            AttributeDescription description = attribute.getAttributeDescription();
            AttributeType type = core.getAttributeType(description.getAttributeType().getNameOrOID());
            if (description.hasOptions()) {
                throw new SchemaLoadException(file + ": entry " + entry.getName() + ": attribute description '"
                        + description + "' has options, which schema files do not use");
            }
            Kind kind = Kind.byAttributeOid(type.getOID());
            if (kind != null) {
                for (ByteString value : attribute) {
                    String text = value.toString().trim();
                    definitions.add(new Definition(file, kind, text, DefinitionText.key(text),
                            DefinitionText.names(text)));
                }
            } else if (OBJECT_CLASS_OID.equals(type.getOID())) {
                for (ByteString value : attribute) {
                    String oc = value.toString().trim();
                    subschema |= oc.equalsIgnoreCase("subschema") || oc.equals(SUBSCHEMA_OID);
                }
            } else if (!isNamingAttribute(entry, type, core)) {
                throw new SchemaLoadException(file + ": entry " + entry.getName() + ": attribute '" + description
                        + "' is not a schema definition attribute (expected one of " + Kind.attributeNames() + ")");
            }
        }
        if (!subschema) {
            throw new SchemaLoadException(file + ": entry " + entry.getName()
                    + " is not a subschema entry (it lacks objectClass: subschema)");
        }
        return definitions;
    }

    private static boolean isNamingAttribute(Entry entry, AttributeType type, Schema core) {
        if (entry.getName().isRootDN()) {
            return false;
        }
        for (AVA ava : entry.getName().rdn()) {
            if (core.getAttributeType(ava.getAttributeType().getNameOrOID()).getOID().equals(type.getOID())) {
                return true;
            }
        }
        return false;
    }

    private static void checkNoDuplicates(List<Definition> definitions) throws SchemaLoadException {
        Map<Kind, Map<String, Definition>> byKey = new HashMap<>();
        Map<Kind, Map<String, Definition>> byName = new HashMap<>();
        for (Definition definition : definitions) {
            if (definition.key != null) {
                Definition other = byKey.computeIfAbsent(definition.kind, k -> new HashMap<>())
                        .putIfAbsent(definition.key.toLowerCase(Locale.ROOT), definition);
                if (other != null) {
                    throw new SchemaLoadException(definition.file + ": " + definition.kind.label + " "
                            + definition.key + " is defined twice, in " + other.file.getFileName() + " ("
                            + other.text + ") and in " + definition.file.getFileName() + " (" + definition.text + ")");
                }
            }
            for (String name : definition.names) {
                Definition other = byName.computeIfAbsent(definition.kind, k -> new HashMap<>())
                        .putIfAbsent(name.toLowerCase(Locale.ROOT), definition);
                if (other != null) {
                    throw new SchemaLoadException(definition.file + ": " + definition.kind.label + " name '" + name
                            + "' is used twice, in " + other.file.getFileName() + " (" + other.text + ") and in "
                            + definition.file.getFileName() + " (" + definition.text + ")");
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Building the schema
    // ---------------------------------------------------------------------------------------------

    private static SchemaBuilder newBuilder(Schema core) {
        // Without the first option an attribute type with neither SUP nor SYNTAX is silently given the
        // default syntax; in our files it is a mistake. Without the second the SDK takes any bytes as an X.509
        // certificate (userCertificate, cACertificate): slapd and OpenDJ refuse what does not parse
        // (invalidAttributeSyntax), and an entry's certificate is what SASL EXTERNAL may map a client by.
        return new SchemaBuilder(core).setOption(SchemaOptions.ALLOW_ATTRIBUTE_TYPES_WITH_NO_SUP_OR_SYNTAX, false)
                .setOption(SchemaOptions.ALLOW_MALFORMED_CERTIFICATES, false);
    }

    private static void add(SchemaBuilder builder, Definition definition) throws SchemaLoadException {
        try {
            definition.kind.add(builder, definition.text);
        } catch (RuntimeException e) {
            // LocalizedIllegalArgumentException for a definition that does not parse.
            throw new SchemaLoadException(definition.file + ": invalid " + definition.kind.label + " definition "
                    + definition.text + ": " + e.getMessage(), e);
        }
    }

    private static Map<Kind, Set<String>> ownKeys(List<Definition> definitions) {
        Map<Kind, Set<String>> keys = new HashMap<>();
        for (Definition definition : definitions) {
            if (definition.key != null) {
                keys.computeIfAbsent(definition.kind, k -> new HashSet<>()).add(definition.key);
            }
        }
        return keys;
    }

    /**
     * Drops built-in elements that carry one of the definition's names under another OID, so that the name
     * refers to the definition from the files (unless that OID is itself redefined by the files).
     */
    private static void dropBuiltInNameClashes(SchemaBuilder builder, Schema strictCore, Definition definition,
            Map<Kind, Set<String>> ownKeys, boolean log) {
        for (String name : definition.names) {
            String builtInKey = definition.kind.builtInKeyOf(strictCore, name);
            if (builtInKey != null && !builtInKey.equals(definition.key)
                    && !ownKeys.getOrDefault(definition.kind, Set.of()).contains(builtInKey)) {
                definition.kind.remove(builder, builtInKey);
                if (log) {
                    logger.info("{}: {} '{}' replaces the built-in {} {} of the same name",
                            definition.file.getFileName(), definition.kind.label, name, definition.kind.label,
                            builtInKey);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Reporting SDK warnings
    // ---------------------------------------------------------------------------------------------

    private static SchemaLoadException unusableSchema(Path directory, List<Path> files, List<Definition> definitions,
            Collection<LocalizableMessage> warnings, Schema core) {
        Map<String, Path> firstFileOf = null;
        StringBuilder message = new StringBuilder("Schema files in ").append(directory).append(" are unusable (")
                .append(warnings.size()).append(warnings.size() == 1 ? " problem):" : " problems):");
        for (LocalizableMessage warning : warnings) {
            String text = warning.toString();
            List<Definition> culprits = culprits(text, definitions);
            message.append("\n  - ");
            if (!culprits.isEmpty()) {
                for (Definition culprit : culprits) {
                    message.append(culprit.file.getFileName()).append(": ").append(culprit.kind.label).append(' ')
                            .append(culprit.text).append("\n    ");
                }
            } else {
                if (firstFileOf == null) {
                    firstFileOf = warningOrigins(files, definitions, core);
                }
                Path file = firstFileOf.get(text);
                message.append(file != null ? file.getFileName().toString() : "(all files)").append(":\n    ");
            }
            message.append(text);
        }
        return new SchemaLoadException(message.toString());
    }

    /** The definitions a warning is about: the one quoted in full, else those whose OID or name it mentions. */
    private static List<Definition> culprits(String warning, List<Definition> definitions) {
        List<Definition> quoted = definitions.stream()
                .filter(d -> warning.contains(d.text))
                .collect(Collectors.toList());
        if (!quoted.isEmpty()) {
            return quoted;
        }
        String lower = warning.toLowerCase(Locale.ROOT);
        List<Definition> mentioned = new ArrayList<>();
        for (Definition definition : definitions) {
            boolean hit = definition.key != null && definition.kind != Kind.DIT_STRUCTURE_RULE
                    && Pattern.compile("(?<![\\w.-])" + Pattern.quote(definition.key.toLowerCase(Locale.ROOT))
                            + "(?![\\w.-])").matcher(lower).find();
            for (String name : definition.names) {
                String n = name.toLowerCase(Locale.ROOT);
                hit |= lower.contains("\"" + n + "\"") || lower.contains("'" + n + "'");
            }
            if (hit) {
                mentioned.add(definition);
            }
        }
        return mentioned;
    }

    /**
     * For warnings that name no definition: the first file after which the warning appears, found by
     * rebuilding the schema file by file. Only used on the failure path.
     */
    private static Map<String, Path> warningOrigins(List<Path> files, List<Definition> definitions, Schema core) {
        Map<String, Path> origins = new LinkedHashMap<>();
        Schema strictCore = core.asStrictSchema();
        Map<Kind, Set<String>> ownKeys = ownKeys(definitions);
        for (int i = 0; i < files.size(); i++) {
            Set<Path> prefix = new HashSet<>(files.subList(0, i + 1));
            SchemaBuilder builder = newBuilder(core);
            for (Definition definition : definitions) {
                if (prefix.contains(definition.file)) {
                    try {
                        add(builder, definition);
                    } catch (SchemaLoadException e) {
                        continue; // cannot happen: every definition parsed before
                    }
                    dropBuiltInNameClashes(builder, strictCore, definition, ownKeys, false);
                }
            }
            for (LocalizableMessage warning : builder.toSchema().getWarnings()) {
                origins.putIfAbsent(warning.toString(), files.get(i));
            }
        }
        return origins;
    }

    // ---------------------------------------------------------------------------------------------
    // Definitions
    // ---------------------------------------------------------------------------------------------

    /** One definition value from a schema file. {@code key} is its OID (rule ID for DIT structure rules). */
    private static final class Definition {
        final Path file;
        final Kind kind;
        final String text;
        final String key;
        final List<String> names;

        Definition(Path file, Kind kind, String text, String key, List<String> names) {
            this.file = file;
            this.kind = kind;
            this.text = text;
            this.key = key;
            this.names = names;
        }
    }

    /** The kinds of definitions, in the order they are added to the builder. */
    private enum Kind {
        SYNTAX("ldapSyntaxes", "1.3.6.1.4.1.1466.101.120.16", "syntax"),
        MATCHING_RULE("matchingRules", "2.5.21.4", "matching rule"),
        ATTRIBUTE_TYPE("attributeTypes", "2.5.21.5", "attribute type"),
        OBJECT_CLASS("objectClasses", "2.5.21.6", "object class"),
        MATCHING_RULE_USE("matchingRuleUse", "2.5.21.8", "matching rule use"),
        NAME_FORM("nameForms", "2.5.21.7", "name form"),
        DIT_CONTENT_RULE("dITContentRules", "2.5.21.2", "DIT content rule"),
        DIT_STRUCTURE_RULE("dITStructureRules", "2.5.21.1", "DIT structure rule");

        final String attributeName;
        final String attributeOid;
        final String label;

        Kind(String attributeName, String attributeOid, String label) {
            this.attributeName = attributeName;
            this.attributeOid = attributeOid;
            this.label = label;
        }

        static Kind byAttributeOid(String oid) {
            for (Kind kind : values()) {
                if (kind.attributeOid.equals(oid)) {
                    return kind;
                }
            }
            return null;
        }

        static String attributeNames() {
            return Stream.of(values()).map(k -> k.attributeName).collect(Collectors.joining(", "));
        }

        void add(SchemaBuilder builder, String definition) {
            switch (this) {
            case SYNTAX: builder.addSyntax(definition, true); break;
            case MATCHING_RULE: builder.addMatchingRule(definition, true); break;
            case ATTRIBUTE_TYPE: builder.addAttributeType(definition, true); break;
            case OBJECT_CLASS: builder.addObjectClass(definition, true); break;
            case MATCHING_RULE_USE: builder.addMatchingRuleUse(definition, true); break;
            case NAME_FORM: builder.addNameForm(definition, true); break;
            case DIT_CONTENT_RULE: builder.addDITContentRule(definition, true); break;
            case DIT_STRUCTURE_RULE: builder.addDITStructureRule(definition, true); break;
            default: throw new AssertionError(this);
            }
        }

        void remove(SchemaBuilder builder, String key) {
            switch (this) {
            case SYNTAX: builder.removeSyntax(key); break;
            case MATCHING_RULE: builder.removeMatchingRule(key); break;
            case ATTRIBUTE_TYPE: builder.removeAttributeType(key); break;
            case OBJECT_CLASS: builder.removeObjectClass(key); break;
            case MATCHING_RULE_USE: builder.removeMatchingRuleUse(key); break;
            case NAME_FORM: builder.removeNameForm(key); break;
            case DIT_CONTENT_RULE: builder.removeDITContentRule(key); break;
            case DIT_STRUCTURE_RULE: builder.removeDITStructureRule(Integer.parseInt(key)); break;
            default: throw new AssertionError(this);
            }
        }

        /** The key of the built-in element called {@code name}, or {@code null} if there is none. */
        String builtInKeyOf(Schema strictCore, String name) {
            try {
                switch (this) {
                case SYNTAX: return null; // syntaxes have no names
                case MATCHING_RULE: return strictCore.getMatchingRule(name).getOID();
                case ATTRIBUTE_TYPE: return strictCore.getAttributeType(name).getOID();
                case OBJECT_CLASS: return strictCore.getObjectClass(name).getOID();
                case MATCHING_RULE_USE: return strictCore.getMatchingRuleUse(name).getMatchingRuleOID();
                case NAME_FORM: return strictCore.getNameForm(name).getOID();
                case DIT_CONTENT_RULE: return strictCore.getDITContentRule(name).getStructuralClassOID();
                case DIT_STRUCTURE_RULE: return String.valueOf(strictCore.getDITStructureRule(name).getRuleID());
                default: throw new AssertionError(this);
                }
            } catch (UnknownSchemaElementException e) {
                return null;
            }
        }

        /** Whether the built-in schema has an element with this key. */
        boolean isBuiltIn(Schema strictCore, String key) {
            if (key == null) {
                return false;
            }
            switch (this) {
            case SYNTAX: return strictCore.hasSyntax(key);
            case MATCHING_RULE: return strictCore.hasMatchingRule(key);
            case ATTRIBUTE_TYPE: return strictCore.hasAttributeType(key);
            case OBJECT_CLASS: return strictCore.hasObjectClass(key);
            case MATCHING_RULE_USE: return strictCore.hasMatchingRuleUse(key);
            case NAME_FORM: return strictCore.hasNameForm(key);
            case DIT_CONTENT_RULE: return strictCore.hasDITContentRule(key);
            case DIT_STRUCTURE_RULE:
                try {
                    return strictCore.hasDITStructureRule(Integer.parseInt(key));
                } catch (NumberFormatException e) {
                    return false;
                }
            default: throw new AssertionError(this);
            }
        }
    }

    /**
     * Just enough of the RFC 4512 description syntax to find a definition's OID and names, for duplicate
     * checks and messages. The SDK does the real parsing; on text it cannot read these return nothing.
     */
    private static final class DefinitionText {
        private DefinitionText() {
        }

        static String key(String definition) {
            List<String> tokens = tokens(definition);
            if (tokens.size() < 2 || !tokens.get(0).equals("(") || isDelimiter(tokens.get(1))) {
                return null;
            }
            return tokens.get(1);
        }

        static List<String> names(String definition) {
            List<String> tokens = tokens(definition);
            List<String> names = new ArrayList<>();
            int depth = 0;
            for (int i = 0; i < tokens.size(); i++) {
                String token = tokens.get(i);
                if (token.equals("(")) {
                    depth++;
                } else if (token.equals(")")) {
                    depth--;
                } else if (depth == 1 && token.equalsIgnoreCase("NAME") && i + 1 < tokens.size()) {
                    String next = tokens.get(i + 1);
                    if (next.startsWith("'")) {
                        names.add(unquote(next));
                    } else if (next.equals("(")) {
                        for (int j = i + 2; j < tokens.size() && tokens.get(j).startsWith("'"); j++) {
                            names.add(unquote(tokens.get(j)));
                        }
                    }
                    break;
                }
            }
            return names;
        }

        /** Tokens: "(", ")", quoted strings (quotes kept) and bare words; empty if a quote is unterminated. */
        private static List<String> tokens(String s) {
            List<String> tokens = new ArrayList<>();
            int i = 0;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '(' || c == ')') {
                    tokens.add(String.valueOf(c));
                    i++;
                } else if (c == '\'') {
                    int end = s.indexOf('\'', i + 1);
                    if (end < 0) {
                        return List.of();
                    }
                    tokens.add(s.substring(i, end + 1));
                    i = end + 1;
                } else {
                    int start = i;
                    while (i < s.length() && !Character.isWhitespace(s.charAt(i)) && "()'".indexOf(s.charAt(i)) < 0) {
                        i++;
                    }
                    tokens.add(s.substring(start, i));
                }
            }
            return tokens;
        }

        private static boolean isDelimiter(String token) {
            return token.equals("(") || token.equals(")") || token.startsWith("'");
        }

        private static String unquote(String quoted) {
            return quoted.substring(1, quoted.length() - 1);
        }
    }
}
