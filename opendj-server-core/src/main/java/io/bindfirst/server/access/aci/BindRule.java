package io.bindfirst.server.access.aci;

/**
 * The condition of an ACI's permission: keywords ({@code userdn}, {@code groupdn}, {@code userattr},
 * {@code authmethod}, {@code ip}, {@code ssf}, {@code dayofweek}, {@code timeofday}) joined by {@code and},
 * {@code or} and {@code not}.
 */
interface BindRule {
    boolean matches(AciContext context);

    record And(BindRule left, BindRule right) implements BindRule {
        @Override
        public boolean matches(AciContext context) {
            return left.matches(context) && right.matches(context);
        }
    }

    record Or(BindRule left, BindRule right) implements BindRule {
        @Override
        public boolean matches(AciContext context) {
            return left.matches(context) || right.matches(context);
        }
    }

    /** {@code not}, and a keyword with {@code !=}: matches where the rule does not. */
    record Not(BindRule rule) implements BindRule {
        @Override
        public boolean matches(AciContext context) {
            return !rule.matches(context);
        }
    }
}
