package io.bindfirst.bench;

import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ByteString;
import org.forgerock.opendj.ldap.DN;
import org.forgerock.opendj.ldap.schema.Schema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.bindfirst.server.auth.BindDns;

/**
 * Parsing and normalising a bind DN, as {@code BindOperation} does ({@code DN.valueOf(name, schema)}, and
 * the normalised form is what DN equality, hashing and the backend's key use), with the server schema and,
 * for comparison, the SDK's default (core) schema.
 *
 * <p>Why two methods: the SDK keeps a per-thread cache of the last 32 parent DNs it built, so
 * {@code ou=People,dc=example,dc=com} is parsed once per thread and then found by string; the full DN is
 * not cached (SDK 5.0.3 puts only parents in that cache), so its RDN is parsed, a new DN built and
 * normalised on every call. {@link #sameDn} parses one typical bind DN over and over (a pool re-binding as
 * one account); {@link #distinctDns} cycles through 10,000 user DNs (binds by many users). If they differ
 * by more than the noise, some caching of the full DN is at work. The server decodes a new String per
 * request, so that String's hash is computed once more there (tens of ns, not included).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class DnBenchmark {

    static final String BIND_DN = "uid=user.4242,ou=People,dc=example,dc=com";
    static final int USERS = 10_000;

    @Param({"server", "sdkDefault"})
    public String schema;

    private Schema s;
    private final String[] userDns = new String[USERS];
    private int next;
    private BindDns bindDns;

    @Setup
    public void setUp() {
        switch (schema) {
        case "server": s = ServerSchema.load(); break;
        case "sdkDefault": s = Schema.getDefaultSchema(); break;
        default: throw new IllegalArgumentException("schema " + schema);
        }
        for (int i = 0; i < USERS; i++) {
            userDns[i] = "uid=user." + i + ",ou=People,dc=example,dc=com";
        }
        bindDns = new BindDns(s, USERS);
        // Same normalised form from both schemas for this DN (uid, ou and dc are caseIgnore in both).
        if (!DN.valueOf(BIND_DN.toUpperCase(java.util.Locale.ROOT), s).equals(DN.valueOf(BIND_DN, s))) {
            throw new IllegalStateException("DN not normalised");
        }
    }

    @Benchmark
    public ByteString sameDn() {
        return DN.valueOf(BIND_DN, s).toNormalizedByteString();
    }

    /**
     * {@link #distinctDns} through the server's {@link BindDns} (sized for the 10,000 users, as the bind caches
     * are), which keeps each DN with its normalized form: each call gets a new String of the name, as the server
     * decodes one per request, so its hash is computed as it would be there (a cost the SDK's methods here skip).
     */
    @Benchmark
    public ByteString distinctDnsKept() {
        int i = next;
        next = i + 1 == USERS ? 0 : i + 1;
        String name = new String(userDns[i]);
        DN dn = bindDns.kept(name);
        if (dn == null) { // the first round: parsed and kept, as a successful bind keeps it
            dn = bindDns.parse(name);
            bindDns.keep(name, dn);
        }
        return dn.toNormalizedByteString();
    }

    @Benchmark
    public ByteString distinctDns() {
        int i = next;
        next = i + 1 == USERS ? 0 : i + 1;
        return DN.valueOf(userDns[i], s).toNormalizedByteString();
    }
}
