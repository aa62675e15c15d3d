package io.bindfirst.server.access.aci;

import java.util.Locale;

/**
 * The permissions an access control instruction grants or denies, as bits, named as OpenDJ names them.
 * {@code all} is every right but {@code proxy}, {@code import} and {@code export}, as in OpenDJ.
 */
public final class Rights {
    public static final int READ = 1;
    public static final int WRITE = 1 << 1;
    public static final int ADD = 1 << 2;
    public static final int DELETE = 1 << 3;
    public static final int SEARCH = 1 << 4;
    public static final int COMPARE = 1 << 5;
    public static final int SELFWRITE = 1 << 6;
    public static final int PROXY = 1 << 7;
    public static final int IMPORT = 1 << 8;
    public static final int EXPORT = 1 << 9;
    public static final int ALL = READ | WRITE | ADD | DELETE | SEARCH | COMPARE | SELFWRITE;

    private Rights() {
    }

    /** The right named {@code name}, or -1. */
    static int named(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "read": return READ;
            case "write": return WRITE;
            case "add": return ADD;
            case "delete": return DELETE;
            case "search": return SEARCH;
            case "compare": return COMPARE;
            case "selfwrite": return SELFWRITE;
            case "proxy": return PROXY;
            case "import": return IMPORT;
            case "export": return EXPORT;
            case "all": return ALL;
            default: return -1;
        }
    }

    /** Whether the right applies to attributes (and so to an ACI's {@code targetattr}) rather than entries. */
    static boolean onAttributes(int right) {
        return (right & (READ | SEARCH | COMPARE | WRITE | SELFWRITE)) != 0;
    }
}
