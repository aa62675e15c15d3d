package io.bindfirst.server.access.aci;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Bind rules on the requester's connection: {@code authmethod}, {@code ip} and {@code ssf}. */
final class ConnectionRules {
    private ConnectionRules() {
    }

    /**
     * {@code authmethod}: how the requester authenticated: {@code none}, {@code simple}, {@code ssl} (SASL
     * EXTERNAL with a client certificate) or {@code sasl MECHANISM}.
     */
    record AuthMethod(String method) implements BindRule {
        static AuthMethod parse(String value) {
            String v = value.trim().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
            if (!v.equals("none") && !v.equals("simple") && !v.equals("ssl") && !v.startsWith("sasl ")) {
                throw new IllegalArgumentException("authmethod is none, simple, ssl or sasl MECHANISM, not " + value);
            }
            return new AuthMethod(v);
        }

        @Override
        public boolean matches(AciContext c) {
            return method.equalsIgnoreCase(c.who().auth().authMethod());
        }
    }

    /** {@code ssf}: the connection's security strength compared with a number ({@code ssf>="128"}). */
    record Ssf(Comparison comparison, int strength) implements BindRule {
        static Ssf parse(Comparison comparison, String value) {
            try {
                return new Ssf(comparison, Integer.parseInt(value.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ssf needs a number, not " + value);
            }
        }

        @Override
        public boolean matches(AciContext c) {
            return comparison.holds(Integer.compare(c.who().securityStrength(), strength));
        }
    }

    /**
     * {@code ip}: the client's address is one of the listed ones: addresses, CIDR blocks ({@code 10.0.0.0/8},
     * {@code fd00::/8}) or IPv4 addresses ending in {@code *} parts ({@code 192.168.1.*}), separated by commas.
     */
    record Ip(List<Block> blocks) implements BindRule {
        static Ip parse(String value) {
            List<Block> out = new ArrayList<>();
            for (String part : value.split(",")) {
                out.add(Block.parse(part.trim()));
            }
            return new Ip(List.copyOf(out));
        }

        @Override
        public boolean matches(AciContext c) {
            InetAddress a = c.who().address();
            if (a == null) {
                return false;
            }
            byte[] bytes = a.getAddress();
            for (Block b : blocks) {
                if (b.contains(bytes)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** An address block: the first {@code prefix} bits of {@code address}. */
    record Block(byte[] address, int prefix) {
        static Block parse(String text) {
            String t = text;
            int prefix = -1;
            int slash = t.indexOf('/');
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(t.substring(slash + 1));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("ip: bad prefix length in " + text);
                }
                t = t.substring(0, slash);
            } else if (t.endsWith("*") && t.indexOf(':') < 0) {
                String[] parts = t.split("\\.");
                int known = 0;
                while (known < parts.length && !parts[known].equals("*")) {
                    known++;
                }
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < 4; i++) {
                    b.append(i > 0 ? "." : "").append(i < known ? parts[i] : "0");
                }
                t = b.toString();
                prefix = known * 8;
            }
            if (!t.matches("[0-9a-fA-F:.]+")) { // never a host name: no lookup while parsing
                throw new IllegalArgumentException("ip needs addresses or blocks, not " + text);
            }
            byte[] address;
            try {
                address = InetAddress.getByName(t).getAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("ip: " + text + " is not an address");
            }
            int bits = address.length * 8;
            if (prefix < 0) {
                prefix = bits;
            }
            if (prefix > bits) {
                throw new IllegalArgumentException("ip: prefix length over " + bits + " in " + text);
            }
            return new Block(address, prefix);
        }

        boolean contains(byte[] other) {
            if (other.length != address.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (other[i] != address[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (other[full] & mask) == (address[full] & mask);
        }
    }
}
