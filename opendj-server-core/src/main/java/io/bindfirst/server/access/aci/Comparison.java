package io.bindfirst.server.access.aci;

/** The operator of a bind rule keyword: {@code =}, {@code !=}, {@code <}, {@code <=}, {@code >}, {@code >=}. */
enum Comparison {
    EQ("="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">=");

    private final String text;

    Comparison(String text) {
        this.text = text;
    }

    /** Whether a value that compares to the rule's as {@code cmp} ({@link Integer#compare}) satisfies it. */
    boolean holds(int cmp) {
        switch (this) {
            case EQ: return cmp == 0;
            case NE: return cmp != 0;
            case LT: return cmp < 0;
            case LE: return cmp <= 0;
            case GT: return cmp > 0;
            default: return cmp >= 0;
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
