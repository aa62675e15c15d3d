package io.bindfirst.bench;

import java.util.concurrent.TimeUnit;

import org.forgerock.opendj.ldap.ByteString;
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

import io.bindfirst.server.pwd.PasswordSchemes;
import io.bindfirst.server.pwd.Pbkdf2HmacSha256Scheme;

/**
 * What checking a correct password costs a simple bind, per storage scheme: {@link PasswordSchemes#verify}
 * exactly as the bind path calls it (prefix look-up, base64 decode, digest or PBKDF2, constant-time
 * compare). PBKDF2 runs at the scheme's default 10,000 iterations, the cost a stored value carries.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class PasswordVerifyBenchmark {

    @Param({"SSHA", "SSHA256", "SSHA384", "SSHA512", "PBKDF2-HMAC-SHA256"})
    public String scheme;

    private PasswordSchemes schemes;
    private final ByteString password = ByteString.valueOfUtf8("password");
    private ByteString stored;

    @Setup
    public void setUp() {
        schemes = new PasswordSchemes(scheme, false);
        stored = schemes.encode(password); // random salt, as the server stores it
        if (!schemes.verify(password, stored)) {
            throw new IllegalStateException("the benchmark's own password does not verify: " + stored);
        }
        if (scheme.equals(Pbkdf2HmacSha256Scheme.NAME)
                && !stored.toString().startsWith(
                        "{" + scheme + "}" + Pbkdf2HmacSha256Scheme.DEFAULT_ITERATIONS + ":")) {
            throw new IllegalStateException("expected the default iteration count: " + stored);
        }
    }

    /** Returns the outcome so that the JIT cannot drop the work. */
    @Benchmark
    public boolean verify() {
        return schemes.verify(password, stored);
    }
}
