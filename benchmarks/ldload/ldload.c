/*
 * ldload: a light closed-loop LDAP load generator (binds, searches, logins) for this project's benchmarks.
 *
 * Why it exists: the Java load tools (UnboundID AuthRate/SearchRate) spend 15-40 us of client CPU per
 * operation and saturate before the server does on a small machine. This client runs one thread over epoll,
 * encodes its requests by hand as BER and decodes no more of a response than it needs (framing, the
 * protocolOp tag, the resultCode, an entry's DN), so nearly all of its CPU per operation is the kernel's
 * send, receive and epoll work.
 *
 * Build: cc -O2 -Wall -Wextra -o ldload ldload.c   (C11, Linux, libc only; or benchmarks/ldload/build.sh)
 * Run:   ldload --help
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Exit statuses (documented in the usage text). */
enum { EXIT_SUCCESS_RUN = 0, EXIT_RUN_FAILED = 1, EXIT_USAGE = 2, EXIT_CONNECT = 3 };

/* Limits that keep every buffer fixed-size; the startup check encodes the largest request once. */
#define MAX_TEMPLATE 2048            /* --dn, --base, --filter, --attrs, passwords */
#define MAX_DN 4096                  /* an entry DN returned by a login search */
#define SCRATCH_SIZE 65536           /* one request is encoded here, then sent */
#define READ_BUF_INITIAL 16384       /* per connection; grows only for a larger response */
#define MAX_MESSAGE (16u << 20)      /* a response larger than this is taken for a broken stream */
#define CONNECT_TIMEOUT_MS 10000       /* for all the connections together */
#define MAX_FILTER_NODES 64
#define MAX_FILTER_KIDS 32
#define MAX_ERROR_KINDS 8
#define MAX_EVENTS 256

/* Client-side failures, kept in the same table as the server's result codes (which are >= 0). */
#define ERR_NO_ENTRY (-1)
#define ERR_MANY_ENTRIES (-2)

/* ---------------------------------------------------------------------------------------------------- */
/* Small helpers                                                                                           */

static void die(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void die(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ldload: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(status);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL)
        die(EXIT_RUN_FAILED, "out of memory (%zu bytes)", n);
    return p;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* This process's CPU time (user, system) in microseconds. */
static void cpu_us(uint64_t *user, uint64_t *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (uint64_t)ru.ru_utime.tv_sec * 1000000u + (uint64_t)ru.ru_utime.tv_usec;
    *sys = (uint64_t)ru.ru_stime.tv_sec * 1000000u + (uint64_t)ru.ru_stime.tv_usec;
}

/* Another process's CPU time (utime + stime of /proc/PID/stat, all its threads) in microseconds, or -1. */
static int64_t proc_cpu_us(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name (field 2) may hold spaces and parentheses: count fields after the last ')'. */
    char *p = strrchr(buf, ')');
    if (p == NULL)
        return -1;
    unsigned long long utime = 0, stime = 0;
    /* After ')': state(3) ppid(4) ... utime(14) stime(15). */
    if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime, &stime) != 2)
        return -1;
    long tck = sysconf(_SC_CLK_TCK);
    if (tck <= 0)
        tck = 100;
    return (int64_t)((utime + stime) * 1000000ull / (unsigned long long)tck);
}

/* splitmix64: good enough spread for picking user numbers, and cheap. */
static uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, bound): the high 32 bits scaled by multiplication (bias below 2^-32 per value). */
static uint32_t rng_below(uint64_t *state, uint32_t bound)
{
    return (uint32_t)(((rng_next(state) >> 32) * (uint64_t)bound) >> 32);
}

static const char *result_code_name(int code)
{
    switch (code) {
    case ERR_NO_ENTRY: return "login search found no entry";
    case ERR_MANY_ENTRIES: return "login search found more than one entry";
    case 0: return "success";
    case 1: return "operationsError";
    case 2: return "protocolError";
    case 3: return "timeLimitExceeded";
    case 4: return "sizeLimitExceeded";
    case 7: return "authMethodNotSupported";
    case 8: return "strongerAuthRequired";
    case 10: return "referral";
    case 11: return "adminLimitExceeded";
    case 13: return "confidentialityRequired";
    case 16: return "noSuchAttribute";
    case 32: return "noSuchObject";
    case 34: return "invalidDNSyntax";
    case 48: return "inappropriateAuthentication";
    case 49: return "invalidCredentials";
    case 50: return "insufficientAccessRights";
    case 51: return "busy";
    case 52: return "unavailable";
    case 53: return "unwillingToPerform";
    case 80: return "other";
    default: return "?";
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* Templates: strings in which %d stands for the user number and %% for a percent sign                    */

struct tmpl {
    char *s;        /* bytes; may hold NULs when they came from a filter's \00 escape */
    size_t len;
};

/* Checks that only %d and %% occur. Returns NULL or an error message. */
static const char *tmpl_check(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] != '%')
            continue;
        if (i + 1 < len && (s[i + 1] == 'd' || s[i + 1] == '%')) {
            i++;
            continue;
        }
        return "only %d (the user number) and %% (a percent sign) may follow a % in a template";
    }
    return NULL;
}

/* Writes the template with num in place of %d; returns the length, or SIZE_MAX if out is too small. */
static size_t tmpl_expand(const struct tmpl *t, const char *num, size_t numlen, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < t->len; i++) {
        const char *src = &t->s[i];
        size_t n = 1;
        if (t->s[i] == '%' && i + 1 < t->len) {
            if (t->s[i + 1] == 'd') {
                src = num;
                n = numlen;
            }
            i++; /* %% leaves src at the first '%' with n = 1 */
        }
        if (cap - o < n)
            return SIZE_MAX;
        memcpy(out + o, src, n);
        o += n;
    }
    return o;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Search filters: (a=v), (a=*) and (&...) of those, parsed once at startup (RFC 4515 syntax)             */

enum fkind { F_AND, F_EQUALITY, F_PRESENT };

struct fnode {
    enum fkind kind;
    const char *attr;       /* points into the filter text */
    size_t attr_len;
    struct tmpl value;      /* F_EQUALITY: escapes decoded, %d kept for expansion */
    int nkids;
    int kids[MAX_FILTER_KIDS];
};

struct filter {
    struct fnode nodes[MAX_FILTER_NODES];
    int count;
    int root;
};

struct fparse {
    const char *start, *p, *end;
    struct filter *f;
    char err[200];
};

static int fparse_fail(struct fparse *fp, const char *what)
{
    if (fp->err[0] == '\0')
        snprintf(fp->err, sizeof fp->err, "%s (at character %td)", what, fp->p - fp->start + 1);
    return -1;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads an equality value up to ')' into node->value: \XX escapes decoded, %d and %% kept as templates
 * (a decoded '%' is stored as %% so that expansion leaves it alone). */
static int fparse_value(struct fparse *fp, struct fnode *node)
{
    char *out = xmalloc((size_t)(fp->end - fp->p) * 2 + 1);
    size_t o = 0;
    while (fp->p < fp->end && *fp->p != ')') {
        char c = *fp->p;
        if (c == '(') {
            free(out);
            return fparse_fail(fp, "'(' inside a value must be written \\28");
        }
        if (c == '*') {
            free(out);
            return fparse_fail(fp, "substring filters (a value with '*') are not supported; (attr=*) is");
        }
        if (c == '\\') {
            int hi = fp->p + 1 < fp->end ? hexval(fp->p[1]) : -1;
            int lo = fp->p + 2 < fp->end ? hexval(fp->p[2]) : -1;
            if (hi < 0 || lo < 0) {
                free(out);
                return fparse_fail(fp, "a '\\' in a value must be followed by two hex digits");
            }
            char b = (char)(hi << 4 | lo);
            out[o++] = b;
            if (b == '%')
                out[o++] = '%';
            fp->p += 3;
            continue;
        }
        if (c == '%') {
            if (fp->p + 1 >= fp->end || (fp->p[1] != 'd' && fp->p[1] != '%')) {
                free(out);
                return fparse_fail(fp, "only %d and %% may follow a % in the filter");
            }
            out[o++] = '%';
            out[o++] = fp->p[1];
            fp->p += 2;
            continue;
        }
        out[o++] = c;
        fp->p++;
    }
    node->value.s = out;
    node->value.len = o;
    return 0;
}

static int fparse_node(struct fparse *fp, int depth)
{
    if (depth > 8)
        return fparse_fail(fp, "filter nested too deeply");
    if (fp->p >= fp->end || *fp->p != '(')
        return fparse_fail(fp, "expected '('");
    fp->p++;
    if (fp->f->count >= MAX_FILTER_NODES)
        return fparse_fail(fp, "too many filter components");
    int idx = fp->f->count++;
    struct fnode *node = &fp->f->nodes[idx];
    memset(node, 0, sizeof *node);

    if (fp->p < fp->end && *fp->p == '&') {
        node->kind = F_AND;
        fp->p++;
        while (fp->p < fp->end && *fp->p == '(') {
            if (node->nkids >= MAX_FILTER_KIDS)
                return fparse_fail(fp, "too many components in one (&...)");
            int kid = fparse_node(fp, depth + 1);
            if (kid < 0)
                return -1;
            node = &fp->f->nodes[idx]; /* the array does not move, but keep the pointer honest */
            node->kids[node->nkids++] = kid;
        }
        if (node->nkids == 0)
            return fparse_fail(fp, "(&) needs at least one component");
    } else if (fp->p < fp->end && (*fp->p == '|' || *fp->p == '!')) {
        return fparse_fail(fp, "OR (|) and NOT (!) are not supported: only (a=v), (a=*) and (&...) of them");
    } else {
        node->attr = fp->p;
        while (fp->p < fp->end && (((*fp->p | 0x20) >= 'a' && (*fp->p | 0x20) <= 'z') ||
                                   (*fp->p >= '0' && *fp->p <= '9') || *fp->p == '-' || *fp->p == '.' ||
                                   *fp->p == ';'))
            fp->p++;
        node->attr_len = (size_t)(fp->p - node->attr);
        if (node->attr_len == 0)
            return fparse_fail(fp, "expected an attribute name");
        if (fp->p >= fp->end)
            return fparse_fail(fp, "unexpected end of filter");
        if (*fp->p == '~' || *fp->p == '>' || *fp->p == '<')
            return fparse_fail(fp, "approximate (~=) and ordering (>=, <=) filters are not supported");
        if (*fp->p == ':')
            return fparse_fail(fp, "extensible match filters are not supported");
        if (*fp->p != '=')
            return fparse_fail(fp, "expected '=' after the attribute name");
        fp->p++;
        if (fp->end - fp->p >= 2 && fp->p[0] == '*' && fp->p[1] == ')') {
            node->kind = F_PRESENT;
            fp->p++;
        } else {
            node->kind = F_EQUALITY;
            if (fparse_value(fp, node) < 0)
                return -1;
        }
    }
    if (fp->p >= fp->end || *fp->p != ')')
        return fparse_fail(fp, "expected ')'");
    fp->p++;
    return idx;
}

/* Parses text (with or without its outer parentheses) into f. Returns NULL or an error message. */
static const char *filter_parse(struct filter *f, const char *text, char *errbuf, size_t errlen)
{
    if (text[0] != '(') { /* like ldapsearch: "uid=x" means "(uid=x)" */
        char *wrapped = xmalloc(strlen(text) + 3);
        sprintf(wrapped, "(%s)", text);
        text = wrapped; /* never freed: the nodes' attribute names point into it for the whole run */
    }
    struct fparse fp = { .start = text, .p = text, .end = text + strlen(text), .f = f, .err = "" };
    f->count = 0;
    f->root = fparse_node(&fp, 0);
    if (f->root >= 0 && fp.p != fp.end)
        fparse_fail(&fp, "unexpected text after the filter");
    if (fp.err[0] == '\0')
        return NULL;
    snprintf(errbuf, errlen, "%s", fp.err);
    return errbuf;
}

/* ---------------------------------------------------------------------------------------------------- */
/* BER encoding, backwards: contents first, then their length and tag in front, so nothing is measured     */
/* twice or moved.                                                                                         */

struct enc {
    uint8_t *buf;
    size_t pos;         /* the encoding is buf[pos .. cap) */
    size_t cap;
    bool overflow;
};

static void enc_init(struct enc *e, uint8_t *buf, size_t cap)
{
    e->buf = buf;
    e->pos = cap;
    e->cap = cap;
    e->overflow = false;
}

static void put_byte(struct enc *e, uint8_t b)
{
    if (e->pos == 0) {
        e->overflow = true;
        return;
    }
    e->buf[--e->pos] = b;
}

static void put_bytes(struct enc *e, const void *p, size_t n)
{
    if (e->pos < n) {
        e->overflow = true;
        return;
    }
    e->pos -= n;
    memcpy(e->buf + e->pos, p, n);
}

/* Definite length: short form below 128, long form (0x8k then k bytes) above. */
static void put_len(struct enc *e, size_t n)
{
    if (n < 0x80) {
        put_byte(e, (uint8_t)n);
        return;
    }
    uint8_t k = 0;
    while (n > 0) {
        put_byte(e, (uint8_t)(n & 0xff));
        n >>= 8;
        k++;
    }
    put_byte(e, (uint8_t)(0x80 | k));
}

/* Prepends the tag and length of the contents written since the encoder's position was end. */
static void wrap(struct enc *e, uint8_t tag, size_t end)
{
    put_len(e, end - e->pos);
    put_byte(e, tag);
}

static void put_octets(struct enc *e, uint8_t tag, const void *p, size_t n)
{
    size_t end = e->pos;
    put_bytes(e, p, n);
    wrap(e, tag, end);
}

/* A non-negative INTEGER or ENUMERATED in its shortest two's complement form. */
static void put_uint(struct enc *e, uint8_t tag, uint32_t v)
{
    size_t end = e->pos;
    do {
        put_byte(e, (uint8_t)(v & 0xff));
        v >>= 8;
    } while (v != 0);
    if (!e->overflow && (e->buf[e->pos] & 0x80))
        put_byte(e, 0);
    wrap(e, tag, end);
}

/* ---------------------------------------------------------------------------------------------------- */
/* BER decoding of responses                                                                               */

/* Reads a tag and definite length from p (avail bytes). Returns the header size, 0 when more bytes are
 * needed, -1 when it is not an encoding LDAP allows (multi-byte tags, indefinite or > 4-byte lengths). */
static int ber_header(const uint8_t *p, size_t avail, uint8_t *tag, size_t *len)
{
    if (avail < 2)
        return 0;
    if ((p[0] & 0x1f) == 0x1f)
        return -1;
    *tag = p[0];
    if (p[1] < 0x80) {
        *len = p[1];
        return 2;
    }
    size_t k = p[1] & 0x7f;
    if (k == 0 || k > 4)
        return -1;
    if (avail < 2 + k)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        n = (n << 8) | p[2 + i];
    *len = n;
    return (int)(2 + k);
}

/* A cursor over a complete message. */
struct rd {
    const uint8_t *p, *end;
};

/* Reads one element; on success points *content at its contents and moves past it. */
static bool rd_element(struct rd *d, uint8_t *tag, const uint8_t **content, size_t *len)
{
    int h = ber_header(d->p, (size_t)(d->end - d->p), tag, len);
    if (h <= 0 || *len > (size_t)(d->end - d->p) - (size_t)h)
        return false;
    *content = d->p + h;
    d->p += (size_t)h + *len;
    return true;
}

/* An INTEGER/ENUMERATED of 1 to 4 bytes that LDAP keeps non-negative (message IDs, result codes). */
static bool decode_uint(const uint8_t *p, size_t len, int32_t *out)
{
    if (len == 0 || len > 4 || (p[0] & 0x80))
        return false;
    uint32_t v = 0;
    for (size_t i = 0; i < len; i++)
        v = (v << 8) | p[i];
    *out = (int32_t)v;
    return true;
}

/* An LDAPResult's resultCode and diagnosticMessage (empty when absent). */
static bool decode_result(const uint8_t *p, size_t len, int32_t *code, const uint8_t **diag, size_t *diaglen)
{
    struct rd d = { p, p + len };
    uint8_t tag;
    const uint8_t *c;
    size_t n;
    if (!rd_element(&d, &tag, &c, &n) || tag != 0x0a || !decode_uint(c, n, code))
        return false;
    *diag = NULL;
    *diaglen = 0;
    if (rd_element(&d, &tag, &c, &n) && tag == 0x04 && rd_element(&d, &tag, &c, &n) && tag == 0x04) {
        *diag = c;
        *diaglen = n;
    }
    return true;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Latency histogram: log-linear buckets over nanoseconds (64 per power of two: under 1.6% error)          */

#define HIST_SUB_BITS 6
#define HIST_MAX_BITS 40            /* 2^40 ns = 18 minutes; longer is clamped */
#define HIST_BUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) << HIST_SUB_BITS)

static size_t hist_index(uint64_t v)
{
    if (v >= (1ull << HIST_MAX_BITS))
        v = (1ull << HIST_MAX_BITS) - 1;
    if (v < (1u << (HIST_SUB_BITS + 1)))
        return (size_t)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned shift = msb - HIST_SUB_BITS;
    return ((size_t)(shift + 1) << HIST_SUB_BITS) + (size_t)((v >> shift) - (1u << HIST_SUB_BITS));
}

/* The largest value that falls in bucket i. */
static uint64_t hist_upper(size_t i)
{
    if (i < (1u << (HIST_SUB_BITS + 1)))
        return i;
    unsigned shift = (unsigned)(i >> HIST_SUB_BITS) - 1;
    uint64_t mantissa = (i & ((1u << HIST_SUB_BITS) - 1)) + (1u << HIST_SUB_BITS);
    return ((mantissa + 1) << shift) - 1;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Configuration                                                                                           */

enum mode { M_BIND, M_SEARCH, M_LOGIN, M_LOGIN2 };
static const char *const mode_names[] = { "bind", "search", "login", "login2" };

struct config {
    enum mode mode;
    const char *host;
    const char *port;
    int conns;                  /* connections; pairs in login2 */
    double seconds, warmup;
    uint32_t users;
    uint64_t seed;
    struct tmpl dn;
    const char *password;
    const char *base;
    const char *filter_text;
    struct filter filter;
    const char **attrs;
    int nattrs;
    const char *bind_as;
    const char *bind_password;
    long server_pid;            /* 0: none */
};

static void usage(FILE *out)
{
    fputs(
"usage: ldload --mode bind|search|login|login2 [options]\n"
"A light closed-loop LDAP load generator: one thread, epoll, N persistent connections to HOST:PORT, each with\n"
"one request outstanding at a time; hand-made BER, plain LDAP (no TLS).\n"
"\n"
"Modes:\n"
"  bind     simple bind as --dn with %d a random user number in [0, --users), password --password\n"
"  search   subtree search under --base for --filter (%d as above), returning --attrs\n"
"  login    on one connection, the search, then a simple bind as the entry found (one login = both;\n"
"           latency from the search's send to the bind's response)\n"
"  login2   the search on connection A, the bind on a second connection B paired with it (as Apache\n"
"           mod_authnz_ldap and SSSD do); --connections counts pairs\n"
"\n"
"Options (defaults in brackets):\n"
"  --host H             server address [127.0.0.1]\n"
"  --port P             server port [1389]\n"
"  --mode M             bind, search, login or login2 [bind]\n"
"  --connections N      connections, or pairs in login2 [16]\n"
"  --seconds S          measured seconds, after the warm-up [15]\n"
"  --warmup S           seconds of load before the measured window, left out of the figures [2]\n"
"  --users N            user numbers are drawn from [0, N) [10000]\n"
"  --seed N             random seed [from the clock; printed]\n"
"  --dn T               bind DN template [uid=user.%d,ou=People,dc=example,dc=com]\n"
"  --password P         users' password [password]\n"
"  --base B             search base [ou=People,dc=example,dc=com]\n"
"  --filter F           search filter template: (a=v), (a=*) and (&...) of them [(uid=user.%d)]\n"
"  --attrs A,B          attributes to return, comma-separated; '' for all user attributes [1.1]\n"
"  --bind-as DN         search connections first bind once as this service account; in login mode each\n"
"                       login then ends with a bind back as it (search, user bind, service bind = 1 op)\n"
"  --bind-password P    the service account's password [password]\n"
"  --server-pid PID     also report the server's CPU per op (utime+stime of /proc/PID/stat)\n"
"  -h, --help           this text\n"
"\n"
"Output: a human header and error details on stderr; on stdout one line of key=value pairs:\n"
"  mode conns secs ops rate p50_us p90_us p99_us p999_us max_us errors client_cpu_us_per_op\n"
"  client_user_us_per_op client_sys_us_per_op entries_per_search [server_cpu_us_per_op]\n"
"ops counts every completed operation (errors included); latencies and CPU cover the measured window only.\n"
"Any result code other than success is an error, and so is a login whose search found no entry or more\n"
"than one. A dropped connection ends the run (no reconnects). The run always ends: at most 10 s to connect,\n"
"then the warm-up and the measured seconds.\n"
"\n"
"Exit: 0 done, errors at most 1% of ops; 1 errors above 1% of ops, no op completed, or the run failed\n"
"(service account bind refused, protocol error); 2 bad arguments; 3 cannot connect, or a connection dropped.\n",
        out);
}

static void bad_usage(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void bad_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ldload: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("\nusage: ldload --mode bind|search|login|login2 [options]   (ldload --help lists them)\n", stderr);
    va_end(ap);
    exit(EXIT_USAGE);
}

static long long parse_int(const char *opt, const char *s, long long min, long long max)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max)
        bad_usage("%s wants an integer in [%lld, %lld], not '%s'", opt, min, max, s);
    return v;
}

static double parse_seconds(const char *opt, const char *s, double min)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= min) || v > 86400.0)
        bad_usage("%s wants a number of seconds in [%g, 86400], not '%s'", opt, min, s);
    return v;
}

static void check_length(const char *opt, const char *s)
{
    if (strlen(s) > MAX_TEMPLATE)
        bad_usage("%s is longer than %d bytes", opt, MAX_TEMPLATE);
}

/* Splits a comma list into cfg->attrs (spaces around names dropped, empty names skipped). */
static void parse_attrs(struct config *cfg, const char *text)
{
    char *copy = strdup(text);
    if (copy == NULL)
        die(EXIT_RUN_FAILED, "out of memory");
    cfg->attrs = xmalloc(sizeof(char *) * (strlen(text) / 2 + 2));
    cfg->nattrs = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t n = strlen(tok);
        while (n > 0 && tok[n - 1] == ' ')
            tok[--n] = '\0';
        if (n > 0)
            cfg->attrs[cfg->nattrs++] = tok;
    }
}

static void parse_args(struct config *cfg, int argc, char **argv)
{
    enum { O_HOST = 256, O_PORT, O_MODE, O_CONNS, O_SECONDS, O_WARMUP, O_USERS, O_SEED, O_DN, O_PASSWORD,
           O_BASE, O_FILTER, O_ATTRS, O_BIND_AS, O_BIND_PASSWORD, O_SERVER_PID };
    static const struct option options[] = {
        { "host", required_argument, NULL, O_HOST },
        { "port", required_argument, NULL, O_PORT },
        { "mode", required_argument, NULL, O_MODE },
        { "connections", required_argument, NULL, O_CONNS },
        { "seconds", required_argument, NULL, O_SECONDS },
        { "warmup", required_argument, NULL, O_WARMUP },
        { "users", required_argument, NULL, O_USERS },
        { "seed", required_argument, NULL, O_SEED },
        { "dn", required_argument, NULL, O_DN },
        { "password", required_argument, NULL, O_PASSWORD },
        { "base", required_argument, NULL, O_BASE },
        { "filter", required_argument, NULL, O_FILTER },
        { "attrs", required_argument, NULL, O_ATTRS },
        { "bind-as", required_argument, NULL, O_BIND_AS },
        { "bind-password", required_argument, NULL, O_BIND_PASSWORD },
        { "server-pid", required_argument, NULL, O_SERVER_PID },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    const char *dn = "uid=user.%d,ou=People,dc=example,dc=com";
    const char *attrs = "1.1";
    bool seed_set = false;

    *cfg = (struct config){
        .mode = M_BIND, .host = "127.0.0.1", .port = "1389", .conns = 16, .seconds = 15, .warmup = 2,
        .users = 10000, .password = "password", .base = "ou=People,dc=example,dc=com",
        .filter_text = "(uid=user.%d)", .bind_password = "password",
    };
    opterr = 0; /* our own messages, with the usage text */
    int c;
    while ((c = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        switch (c) {
        case 'h': usage(stdout); exit(EXIT_SUCCESS_RUN);
        case O_HOST: cfg->host = optarg; break;
        case O_PORT: parse_int("--port", optarg, 1, 65535); cfg->port = optarg; break;
        case O_MODE: {
            int m = -1;
            for (int i = 0; i < 4; i++)
                if (strcmp(optarg, mode_names[i]) == 0)
                    m = i;
            if (m < 0)
                bad_usage("--mode is bind, search, login or login2, not '%s'", optarg);
            cfg->mode = (enum mode)m;
            break;
        }
        case O_CONNS: cfg->conns = (int)parse_int("--connections", optarg, 1, 50000); break;
        case O_SECONDS: cfg->seconds = parse_seconds("--seconds", optarg, 0.1); break;
        case O_WARMUP: cfg->warmup = parse_seconds("--warmup", optarg, 0); break;
        case O_USERS: cfg->users = (uint32_t)parse_int("--users", optarg, 1, INT32_MAX); break;
        case O_SEED: cfg->seed = (uint64_t)parse_int("--seed", optarg, 0, LLONG_MAX); seed_set = true; break;
        case O_DN: check_length("--dn", optarg); dn = optarg; break;
        case O_PASSWORD: check_length("--password", optarg); cfg->password = optarg; break;
        case O_BASE: check_length("--base", optarg); cfg->base = optarg; break;
        case O_FILTER: check_length("--filter", optarg); cfg->filter_text = optarg; break;
        case O_ATTRS: check_length("--attrs", optarg); attrs = optarg; break;
        case O_BIND_AS: check_length("--bind-as", optarg); cfg->bind_as = optarg; break;
        case O_BIND_PASSWORD: check_length("--bind-password", optarg); cfg->bind_password = optarg; break;
        case O_SERVER_PID: cfg->server_pid = (long)parse_int("--server-pid", optarg, 1, INT_MAX); break;
        case ':': bad_usage("%s needs a value", argv[optind - 1]);
        default: /* '?': optopt is the short option's letter, or 0 for a long one */
            if (optopt > 0 && optopt < 128 && strncmp(argv[optind - 1], "--", 2) != 0)
                bad_usage("unknown option '-%c'", optopt);
            bad_usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        bad_usage("unexpected argument '%s'", argv[optind]);

    cfg->dn.s = (char *)dn;
    cfg->dn.len = strlen(dn);
    const char *why = tmpl_check(cfg->dn.s, cfg->dn.len);
    if (why != NULL)
        bad_usage("--dn: %s", why);
    char err[256];
    why = filter_parse(&cfg->filter, cfg->filter_text, err, sizeof err);
    if (why != NULL)
        bad_usage("--filter '%s': %s", cfg->filter_text, why);
    parse_attrs(cfg, attrs);
    if (cfg->bind_as != NULL && cfg->mode == M_BIND)
        bad_usage("--bind-as is for the search, login and login2 modes");
    if (cfg->server_pid != 0 && proc_cpu_us(cfg->server_pid) < 0)
        bad_usage("--server-pid %ld: cannot read /proc/%ld/stat", cfg->server_pid, cfg->server_pid);
    if (!seed_set)
        cfg->seed = now_ns() ^ ((uint64_t)getpid() << 32);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Connections and the run                                                                                 */

/* What a connection waits for. */
enum phase {
    P_IDLE,          /* nothing outstanding (a login2 bind connection between logins) */
    P_SVC_BIND,      /* the service account's bind at connect */
    P_SEARCH,        /* a search's entries and its SearchResultDone */
    P_USER_BIND,     /* a user's bind */
    P_SVC_REBIND,    /* login with --bind-as: the bind back as the service account */
};
static const char *const phase_names[] = { "nothing", "the service account's bind", "a search",
                                           "a user's bind", "the bind back as the service account" };

struct conn {
    int fd;
    int index;
    enum phase phase;
    struct conn *peer;          /* login2: the search connection's bind connection, and back */
    int32_t msgid;              /* of the request outstanding */
    uint64_t t0;                /* when the current operation (login: its search) was sent */
    uint32_t entries;           /* entries of the current search */
    int op_err;                 /* login with --bind-as: the user bind's result, reported after the re-bind */
    uint8_t *rbuf;              /* received bytes not yet decoded */
    size_t rlen, rcap;
    uint8_t *pend;              /* bytes the socket did not take yet (rare: requests are small) */
    size_t pend_len, pend_cap;
    char dn[MAX_DN];            /* login: the DN of the entry the search found */
    size_t dn_len;
};

struct error_kind {
    int code;
    uint64_t count;
    char message[160];          /* the first diagnosticMessage seen with this code */
};

struct stats {
    uint64_t ops, errors, searches, entries, max_ns;
    struct error_kind kinds[MAX_ERROR_KINDS];
    int nkinds;
    uint64_t other_kinds;       /* errors whose code did not fit in the table */
    uint64_t hist[HIST_BUCKETS];
};

struct run {
    const struct config *cfg;
    char where[300];            /* host:port, for messages */
    int ep;
    struct conn *conns;
    int nconns;
    uint64_t rng;
    bool measuring;
    uint64_t warmup_errors;
    uint64_t t_measure, t_stop;
    uint64_t user0, sys0, user1, sys1;
    int64_t srv0, srv1;
    struct stats st;
    uint8_t scratch[SCRATCH_SIZE];
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static void conn_lost(struct run *r, struct conn *c, const char *why) __attribute__((noreturn));
static void conn_lost(struct run *r, struct conn *c, const char *why)
{
    die(EXIT_CONNECT, "connection %d of %d to %s: %s while waiting for %s; ending the run (ldload does not "
        "reconnect)", c->index + 1, r->nconns, r->where, why, phase_names[c->phase]);
}

static void protocol_error(struct run *r, struct conn *c, const char *what) __attribute__((noreturn));
static void protocol_error(struct run *r, struct conn *c, const char *what)
{
    die(EXIT_RUN_FAILED, "connection %d of %d to %s: unexpected response while waiting for %s: %s", c->index + 1,
        r->nconns, r->where, phase_names[c->phase], what);
}

static void epoll_set(struct run *r, struct conn *c, uint32_t events)
{
    struct epoll_event ev = { .events = events, .data.ptr = c };
    if (epoll_ctl(r->ep, EPOLL_CTL_MOD, c->fd, &ev) < 0)
        die(EXIT_RUN_FAILED, "epoll_ctl: %s", strerror(errno));
}

/* Sends what the socket takes now and keeps the rest until it is writable again. */
static void send_bytes(struct run *r, struct conn *c, const uint8_t *p, size_t n)
{
    if (c->pend_len == 0) {
        ssize_t w = send(c->fd, p, n, MSG_NOSIGNAL);
        if (w == (ssize_t)n)
            return;
        if (w < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                conn_lost(r, c, strerror(errno));
            w = 0;
        }
        p += w;
        n -= (size_t)w;
        epoll_set(r, c, EPOLLIN | EPOLLOUT);
    }
    if (c->pend_cap - c->pend_len < n) {
        c->pend_cap = c->pend_len + n;
        c->pend = realloc(c->pend, c->pend_cap);
        if (c->pend == NULL)
            die(EXIT_RUN_FAILED, "out of memory");
    }
    memcpy(c->pend + c->pend_len, p, n);
    c->pend_len += n;
}

static void on_writable(struct run *r, struct conn *c)
{
    if (c->pend_len == 0)
        return;
    ssize_t w = send(c->fd, c->pend, c->pend_len, MSG_NOSIGNAL);
    if (w < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return;
        conn_lost(r, c, strerror(errno));
    }
    memmove(c->pend, c->pend + w, c->pend_len - (size_t)w);
    c->pend_len -= (size_t)w;
    if (c->pend_len == 0)
        epoll_set(r, c, EPOLLIN);
}

static int32_t next_msgid(struct conn *c)
{
    c->msgid = c->msgid >= INT32_MAX ? 1 : c->msgid + 1;
    return c->msgid;
}

/* Wraps the protocolOp written since end into an LDAPMessage with the connection's next message ID. */
static void finish_message(struct conn *c, struct enc *e, size_t end)
{
    put_uint(e, 0x02, (uint32_t)next_msgid(c));
    wrap(e, 0x30, end);
    if (e->overflow)
        die(EXIT_RUN_FAILED, "a request does not fit in %d bytes", SCRATCH_SIZE);
}

/* Encodes a simple BindRequest into the scratch buffer; returns its start. */
static const uint8_t *encode_bind(struct run *r, struct conn *c, const char *dn, size_t dnlen, const char *pw,
                                  size_t *len)
{
    struct enc e;
    enc_init(&e, r->scratch, sizeof r->scratch);
    size_t end = e.pos;
    put_octets(&e, 0x80, pw, strlen(pw));         /* authentication: simple [0] */
    put_octets(&e, 0x04, dn, dnlen);              /* name */
    put_uint(&e, 0x02, 3);                        /* version */
    wrap(&e, 0x60, end);                          /* [APPLICATION 0] BindRequest */
    finish_message(c, &e, end);
    *len = e.cap - e.pos;
    return e.buf + e.pos;
}

static void encode_filter(struct enc *e, const struct filter *f, int idx, const char *num, size_t numlen)
{
    const struct fnode *node = &f->nodes[idx];
    size_t end = e->pos;
    switch (node->kind) {
    case F_PRESENT:
        put_octets(e, 0x87, node->attr, node->attr_len);                 /* present [7] */
        break;
    case F_EQUALITY: {
        char value[MAX_TEMPLATE * 6];
        size_t n = tmpl_expand(&node->value, num, numlen, value, sizeof value);
        if (n == SIZE_MAX) {
            e->overflow = true;
            return;
        }
        put_octets(e, 0x04, value, n);                                     /* assertionValue */
        put_octets(e, 0x04, node->attr, node->attr_len);                   /* attributeDesc */
        wrap(e, 0xa3, end);                                                /* equalityMatch [3] */
        break;
    }
    case F_AND:
        for (int i = node->nkids - 1; i >= 0; i--)  /* backwards, so that they come out in order */
            encode_filter(e, f, node->kids[i], num, numlen);
        wrap(e, 0xa0, end);                                                /* and [0] */
        break;
    }
}

static const uint8_t *encode_search(struct run *r, struct conn *c, uint32_t user, size_t *len)
{
    const struct config *cfg = r->cfg;
    char num[16];
    size_t numlen = (size_t)snprintf(num, sizeof num, "%" PRIu32, user);
    struct enc e;
    enc_init(&e, r->scratch, sizeof r->scratch);
    size_t end = e.pos;
    size_t attrs_end = e.pos;
    for (int i = cfg->nattrs - 1; i >= 0; i--)
        put_octets(&e, 0x04, cfg->attrs[i], strlen(cfg->attrs[i]));
    wrap(&e, 0x30, attrs_end);                    /* attributes */
    encode_filter(&e, &cfg->filter, cfg->filter.root, num, numlen);
    put_bytes(&e, "\x01\x01\x00", 3);             /* typesOnly FALSE */
    put_uint(&e, 0x02, 0);                        /* timeLimit */
    put_uint(&e, 0x02, 0);                        /* sizeLimit */
    put_uint(&e, 0x0a, 0);                        /* derefAliases neverDerefAliases */
    put_uint(&e, 0x0a, 2);                        /* scope wholeSubtree */
    put_octets(&e, 0x04, cfg->base, strlen(cfg->base));
    wrap(&e, 0x63, end);                          /* [APPLICATION 3] SearchRequest */
    finish_message(c, &e, end);
    *len = e.cap - e.pos;
    return e.buf + e.pos;
}

static void send_bind(struct run *r, struct conn *c, const char *dn, size_t dnlen, const char *pw, enum phase ph)
{
    size_t len;
    const uint8_t *msg = encode_bind(r, c, dn, dnlen, pw, &len);
    c->phase = ph;
    send_bytes(r, c, msg, len);
}

/* Starts a connection's next operation: a bind (bind mode) or a search (the others). */
static void start_op(struct run *r, struct conn *c)
{
    const struct config *cfg = r->cfg;
    uint32_t user = rng_below(&r->rng, cfg->users);
    c->t0 = now_ns();
    c->entries = 0;
    c->dn_len = 0;
    c->op_err = 0;
    if (cfg->mode == M_BIND) {
        char num[16], dn[MAX_TEMPLATE * 6];
        size_t numlen = (size_t)snprintf(num, sizeof num, "%" PRIu32, user);
        size_t dnlen = tmpl_expand(&cfg->dn, num, numlen, dn, sizeof dn);
        if (dnlen == SIZE_MAX)
            die(EXIT_RUN_FAILED, "the bind DN does not fit in %zu bytes", sizeof dn);
        send_bind(r, c, dn, dnlen, cfg->password, P_USER_BIND);
    } else {
        size_t len;
        const uint8_t *msg = encode_search(r, c, user, &len);
        c->phase = P_SEARCH;
        send_bytes(r, c, msg, len);
    }
}

static void note_error(struct stats *st, int code, const uint8_t *diag, size_t diaglen)
{
    st->errors++;
    for (int i = 0; i < st->nkinds; i++) {
        if (st->kinds[i].code == code) {
            st->kinds[i].count++;
            return;
        }
    }
    if (st->nkinds == MAX_ERROR_KINDS) {
        st->other_kinds++;
        return;
    }
    struct error_kind *k = &st->kinds[st->nkinds++];
    k->code = code;
    k->count = 1;
    size_t n = diaglen < sizeof k->message - 1 ? diaglen : sizeof k->message - 1;
    if (n > 0)
        memcpy(k->message, diag, n);
    k->message[n] = '\0';
}

/* An operation (whose start time is op->t0) ended: count it, with err the result code (0: success). */
static void complete_op(struct run *r, struct conn *op, int err, const uint8_t *diag, size_t diaglen)
{
    if (!r->measuring) {
        if (err != 0)
            r->warmup_errors++;
        return;
    }
    uint64_t lat = now_ns() - op->t0;
    struct stats *st = &r->st;
    st->ops++;
    st->hist[hist_index(lat)]++;
    if (lat > st->max_ns)
        st->max_ns = lat;
    if (err != 0)
        note_error(st, err, diag, diaglen);
}

static void on_search_done(struct run *r, struct conn *c, int code, const uint8_t *diag, size_t diaglen)
{
    const struct config *cfg = r->cfg;
    if (r->measuring) {
        r->st.searches++;
        r->st.entries += c->entries;
    }
    if (cfg->mode == M_SEARCH || code != 0 || c->entries != 1) {
        int err = code != 0 ? code : cfg->mode == M_SEARCH ? 0 : c->entries == 0 ? ERR_NO_ENTRY : ERR_MANY_ENTRIES;
        complete_op(r, c, err, diag, diaglen);
        start_op(r, c);
        return;
    }
    if (cfg->mode == M_LOGIN) {
        send_bind(r, c, c->dn, c->dn_len, cfg->password, P_USER_BIND);
    } else { /* login2: the bind goes to the paired connection */
        send_bind(r, c->peer, c->dn, c->dn_len, cfg->password, P_USER_BIND);
        c->phase = P_IDLE;
    }
}

static void on_bind_done(struct run *r, struct conn *c, int code, const uint8_t *diag, size_t diaglen)
{
    const struct config *cfg = r->cfg;
    switch (c->phase) {
    case P_SVC_BIND:
        if (code != 0)
            die(EXIT_RUN_FAILED,
                "the service account's bind as '%s' failed on connection %d: result code %d (%s)%s%.*s", cfg->bind_as,
                c->index + 1, code, result_code_name(code), diaglen ? ": " : "", (int)diaglen, (const char *)diag);
        start_op(r, c);
        break;
    case P_USER_BIND:
        if (cfg->mode == M_LOGIN2) {
            struct conn *a = c->peer;
            c->phase = P_IDLE;
            complete_op(r, a, code, diag, diaglen);
            start_op(r, a);
        } else if (cfg->mode == M_LOGIN && cfg->bind_as != NULL) {
            /* Like an application: back to the service account before the next search. The user bind's
             * result is the login's, unless the re-bind itself fails. */
            c->op_err = code;
            send_bind(r, c, cfg->bind_as, strlen(cfg->bind_as), cfg->bind_password, P_SVC_REBIND);
        } else {
            complete_op(r, c, code, diag, diaglen);
            start_op(r, c);
        }
        break;
    case P_SVC_REBIND:
        complete_op(r, c, c->op_err != 0 ? c->op_err : code, c->op_err != 0 ? NULL : diag,
                    c->op_err != 0 ? 0 : diaglen);
        start_op(r, c);
        break;
    default:
        protocol_error(r, c, "a BindResponse");
    }
}

/* Handles one complete LDAPMessage (its SEQUENCE's contents). */
static void on_message(struct run *r, struct conn *c, const uint8_t *msg, size_t len)
{
    struct rd d = { msg, msg + len };
    uint8_t tag;
    const uint8_t *p;
    size_t n;
    int32_t msgid;
    if (!rd_element(&d, &tag, &p, &n) || tag != 0x02 || !decode_uint(p, n, &msgid))
        protocol_error(r, c, "no messageID");
    if (!rd_element(&d, &tag, &p, &n))
        protocol_error(r, c, "no protocolOp");

    int32_t code;
    const uint8_t *diag;
    size_t diaglen;
    if (msgid == 0 && tag == 0x78) { /* unsolicited notification, e.g. Notice of Disconnection */
        if (!decode_result(p, n, &code, &diag, &diaglen))
            protocol_error(r, c, "a malformed unsolicited notification");
        char why[300];
        snprintf(why, sizeof why, "the server sent a notice of disconnection (result code %d %s%s%.*s)", code,
                 result_code_name(code), diaglen ? ": " : "", (int)(diaglen > 200 ? 200 : diaglen),
                 (const char *)diag);
        conn_lost(r, c, why);
    }
    if (msgid != c->msgid || c->phase == P_IDLE)
        protocol_error(r, c, "a response to a message ID not outstanding");

    switch (tag) {
    case 0x64: /* SearchResultEntry: count it; a login needs the first entry's DN */
        if (c->phase != P_SEARCH)
            protocol_error(r, c, "a SearchResultEntry");
        if (c->entries++ == 0 && (r->cfg->mode == M_LOGIN || r->cfg->mode == M_LOGIN2)) {
            struct rd e = { p, p + n };
            const uint8_t *dn;
            size_t dnlen;
            if (!rd_element(&e, &tag, &dn, &dnlen) || tag != 0x04)
                protocol_error(r, c, "a SearchResultEntry without its DN");
            if (dnlen >= MAX_DN)
                protocol_error(r, c, "an entry DN too long to bind with");
            memcpy(c->dn, dn, dnlen);
            c->dn_len = dnlen;
        }
        break;
    case 0x73: /* SearchResultReference: not followed */
        if (c->phase != P_SEARCH)
            protocol_error(r, c, "a SearchResultReference");
        break;
    case 0x65: /* SearchResultDone */
        if (c->phase != P_SEARCH)
            protocol_error(r, c, "a SearchResultDone");
        if (!decode_result(p, n, &code, &diag, &diaglen))
            protocol_error(r, c, "a malformed SearchResultDone");
        on_search_done(r, c, code, diag, diaglen);
        break;
    case 0x61: /* BindResponse */
        if (!decode_result(p, n, &code, &diag, &diaglen))
            protocol_error(r, c, "a malformed BindResponse");
        on_bind_done(r, c, code, diag, diaglen);
        break;
    default: {
        char what[64];
        snprintf(what, sizeof what, "a protocolOp with tag 0x%02x", tag);
        protocol_error(r, c, what);
    }
    }
}

static void grow_rbuf(struct conn *c, size_t need)
{
    size_t cap = c->rcap;
    while (cap < need)
        cap *= 2;
    c->rbuf = realloc(c->rbuf, cap);
    if (c->rbuf == NULL)
        die(EXIT_RUN_FAILED, "out of memory");
    c->rcap = cap;
}

/* One read per wake-up (level-triggered epoll calls again if more is waiting), then every complete
 * message in the buffer; a partial one stays at the front for the next read. */
static void on_readable(struct run *r, struct conn *c)
{
    ssize_t n = read(c->fd, c->rbuf + c->rlen, c->rcap - c->rlen);
    if (n == 0)
        conn_lost(r, c, "the server closed the connection");
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
            return;
        conn_lost(r, c, strerror(errno));
    }
    c->rlen += (size_t)n;

    size_t off = 0, need = 0;
    while (off < c->rlen) {
        uint8_t tag;
        size_t len;
        int h = ber_header(c->rbuf + off, c->rlen - off, &tag, &len);
        if (h == 0)
            break;
        if (h < 0 || tag != 0x30)
            protocol_error(r, c, "bytes that are not an LDAPMessage");
        if (len > MAX_MESSAGE)
            protocol_error(r, c, "a message larger than 16 MiB");
        size_t total = (size_t)h + len;
        if (c->rlen - off < total) {
            need = total;
            break;
        }
        on_message(r, c, c->rbuf + off + h, len);
        off += total;
    }
    if (off > 0) {
        memmove(c->rbuf, c->rbuf + off, c->rlen - off);
        c->rlen -= off;
    }
    if (need > c->rcap || c->rlen == c->rcap)
        grow_rbuf(c, need > c->rcap ? need : c->rcap * 2);
}

/* A non-blocking connect that gives up after timeout_ms. Returns the socket or -1 with *err set. */
static int connect_one(const struct addrinfo *ai, int timeout_ms, int *err)
{
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
        if (errno != EINPROGRESS) {
            *err = errno;
            close(fd);
            return -1;
        }
        struct pollfd pfd = { .fd = fd, .events = POLLOUT };
        int n;
        do
            n = poll(&pfd, 1, timeout_ms);
        while (n < 0 && errno == EINTR);
        int soerr = 0;
        socklen_t sl = sizeof soerr;
        if (n == 0)
            soerr = ETIMEDOUT;
        else if (n < 0)
            soerr = errno;
        else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
            soerr = errno;
        if (soerr != 0) {
            *err = soerr;
            close(fd);
            return -1;
        }
    }
    /* Requests are single small writes, each answered before the next: Nagle would only add delay. */
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    return fd;
}

/* Lifts the soft limit on open files toward the hard one when the connections need it. */
static void raise_nofile(int needed)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < (rlim_t)needed) {
        rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > (rlim_t)needed ? (rlim_t)needed : rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static void connect_all(struct run *r)
{
    const struct config *cfg = r->cfg;
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_protocol = IPPROTO_TCP };
    struct addrinfo *res;
    int gai = getaddrinfo(cfg->host, cfg->port, &hints, &res);
    if (gai != 0)
        die(EXIT_CONNECT, "cannot resolve '%s': %s", cfg->host, gai_strerror(gai));
    raise_nofile(r->nconns + 16);

    /* The first connection tries each address; the others use the one that answered. All of them share one
     * deadline, so that a server that stops accepting cannot keep the run from ending. */
    const struct addrinfo *ai = NULL;
    int err = 0;
    uint64_t deadline = now_ns() + (uint64_t)CONNECT_TIMEOUT_MS * 1000000u;
    for (int i = 0; i < r->nconns; i++) {
        struct conn *c = &r->conns[i];
        int fd = -1;
        uint64_t now = now_ns();
        int left_ms = now < deadline ? (int)((deadline - now) / 1000000u) : 0;
        if (left_ms == 0)
            die(EXIT_CONNECT, "only %d of %d connections to %s were made in %d s", i, r->nconns, r->where,
                CONNECT_TIMEOUT_MS / 1000);
        if (ai == NULL) {
            for (const struct addrinfo *a = res; a != NULL && fd < 0; a = a->ai_next)
                if ((fd = connect_one(a, left_ms, &err)) >= 0)
                    ai = a;
            if (fd < 0)
                die(EXIT_CONNECT, "cannot connect to %s: %s. Is the server started? (this server: bin/start-ds "
                    "[--port N]; OpenLDAP: benchmarks/peers/setup-slapd.sh)", r->where, strerror(err));
        } else if ((fd = connect_one(ai, left_ms, &err)) < 0) {
            die(EXIT_CONNECT, "connection %d of %d to %s failed: %s%s", i + 1, r->nconns, r->where, strerror(err),
                err == EMFILE ? " (raise the open-files limit: ulimit -n)" : "");
        }
        c->fd = fd;
        c->index = i;
        c->rcap = READ_BUF_INITIAL;
        c->rbuf = xmalloc(c->rcap);
        struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
        if (epoll_ctl(r->ep, EPOLL_CTL_ADD, fd, &ev) < 0)
            die(EXIT_RUN_FAILED, "epoll_ctl: %s", strerror(errno));
    }
    freeaddrinfo(res);
}

/* Encodes the largest requests once, so that a template too large fails now rather than mid-run. */
static void check_request_sizes(struct run *r)
{
    struct conn probe = { .index = -1 };
    size_t len;
    uint32_t largest = r->cfg->users - 1;
    if (r->cfg->mode != M_BIND)
        encode_search(r, &probe, largest, &len);
    char dn[MAX_DN];
    memset(dn, 'x', sizeof dn);
    encode_bind(r, &probe, dn, sizeof dn - 1, r->cfg->password, &len);
}

static void begin_measure(struct run *r, uint64_t now)
{
    memset(&r->st, 0, sizeof r->st);
    r->measuring = true;
    r->t_measure = now;
    cpu_us(&r->user0, &r->sys0);
    r->srv0 = r->cfg->server_pid ? proc_cpu_us(r->cfg->server_pid) : 0;
}

static void end_measure(struct run *r)
{
    r->t_stop = now_ns();
    cpu_us(&r->user1, &r->sys1);
    r->srv1 = r->cfg->server_pid ? proc_cpu_us(r->cfg->server_pid) : 0;
}

/* Milliseconds from now to t, rounded up so that the loop does not spin just before it. */
static int ms_until(uint64_t t, uint64_t now)
{
    if (t <= now)
        return 0;
    uint64_t ms = (t - now + 999999) / 1000000;
    return ms > INT_MAX ? INT_MAX : (int)ms;
}

static void event_loop(struct run *r, uint64_t t_start)
{
    const struct config *cfg = r->cfg;
    uint64_t t_measure = t_start + (uint64_t)(cfg->warmup * 1e9);
    uint64_t t_end = UINT64_MAX;
    struct epoll_event evs[MAX_EVENTS];
    for (;;) {
        uint64_t now = now_ns();
        if (!r->measuring && now >= t_measure) {
            begin_measure(r, now);
            /* from when the window really began, so that it lasts the seconds asked for */
            t_end = now + (uint64_t)(cfg->seconds * 1e9);
        }
        if (now >= t_end || stop_requested)
            break;
        int n = epoll_wait(r->ep, evs, MAX_EVENTS, ms_until(r->measuring ? t_end : t_measure, now));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            die(EXIT_RUN_FAILED, "epoll_wait: %s", strerror(errno));
        }
        for (int i = 0; i < n; i++) {
            struct conn *c = evs[i].data.ptr;
            if (evs[i].events & EPOLLOUT)
                on_writable(r, c);
            if (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                on_readable(r, c);
        }
    }
    end_measure(r);
}

static uint64_t percentile_us(const struct stats *st, double q)
{
    if (st->ops == 0)
        return 0;
    uint64_t rank = (uint64_t)(q * (double)st->ops + 0.999999);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (size_t i = 0; i < HIST_BUCKETS; i++) {
        seen += st->hist[i];
        if (seen >= rank) {
            uint64_t v = hist_upper(i);
            if (v > st->max_ns)
                v = st->max_ns;
            return (v + 500) / 1000;
        }
    }
    return (st->max_ns + 500) / 1000;
}

/* The result line on stdout, error details on stderr; returns the exit status. */
static int report(struct run *r)
{
    const struct config *cfg = r->cfg;
    const struct stats *st = &r->st;
    double secs = (double)(r->t_stop - r->t_measure) / 1e9;
    double ops = st->ops ? (double)st->ops : INFINITY; /* per-op figures of an empty window read 0 */
    double user = (double)(r->user1 - r->user0), sys = (double)(r->sys1 - r->sys0);
    printf("mode=%s conns=%d secs=%.2f ops=%" PRIu64 " rate=%.1f p50_us=%" PRIu64 " p90_us=%" PRIu64
           " p99_us=%" PRIu64 " p999_us=%" PRIu64 " max_us=%" PRIu64 " errors=%" PRIu64
           " client_cpu_us_per_op=%.2f client_user_us_per_op=%.2f client_sys_us_per_op=%.2f"
           " entries_per_search=%.2f",
           mode_names[cfg->mode], cfg->conns, secs, st->ops, secs > 0 ? (double)st->ops / secs : 0,
           percentile_us(st, 0.50), percentile_us(st, 0.90), percentile_us(st, 0.99), percentile_us(st, 0.999),
           (st->max_ns + 500) / 1000, st->errors, (user + sys) / ops, user / ops, sys / ops,
           st->searches ? (double)st->entries / (double)st->searches : 0.0);
    if (cfg->server_pid != 0) {
        if (r->srv0 >= 0 && r->srv1 >= 0)
            printf(" server_cpu_us_per_op=%.2f", (double)(r->srv1 - r->srv0) / ops);
        else
            printf(" server_cpu_us_per_op=NaN");
    }
    printf("\n");
    fflush(stdout);

    for (int i = 0; i < st->nkinds; i++) {
        const struct error_kind *k = &st->kinds[i];
        fprintf(stderr, "ldload: error %d (%s) x %" PRIu64 "%s%s\n", k->code, result_code_name(k->code), k->count,
                k->message[0] ? ", first message: " : "", k->message);
    }
    if (st->other_kinds)
        fprintf(stderr, "ldload: %" PRIu64 " more errors with other codes\n", st->other_kinds);
    if (r->warmup_errors)
        fprintf(stderr, "ldload: (the warm-up also had %" PRIu64 " errors, not counted above)\n", r->warmup_errors);
    if (cfg->server_pid != 0 && (r->srv0 < 0 || r->srv1 < 0))
        fprintf(stderr, "ldload: could not read the CPU time of server pid %ld\n", cfg->server_pid);
    if (st->ops == 0) {
        fprintf(stderr, "ldload: no operation completed in the measured window\n");
        return EXIT_RUN_FAILED;
    }
    if (st->errors * 100 > st->ops) {
        fprintf(stderr, "ldload: errors are %.2f%% of operations (more than 1%%)\n",
                100.0 * (double)st->errors / (double)st->ops);
        return EXIT_RUN_FAILED;
    }
    return EXIT_SUCCESS_RUN;
}

/* Unbinds and closes every connection (after the figures are taken: not part of the measurement). */
static void close_all(struct run *r)
{
    /* UnbindRequest with message ID 127 (any unused one: the server answers nothing). */
    static const uint8_t unbind[] = { 0x30, 0x05, 0x02, 0x01, 0x7f, 0x42, 0x00 };
    for (int i = 0; i < r->nconns; i++) {
        struct conn *c = &r->conns[i];
        if (c->pend_len == 0)
            (void)!send(c->fd, unbind, sizeof unbind, MSG_NOSIGNAL);
        close(c->fd);
        free(c->rbuf);
        free(c->pend);
    }
}

int main(int argc, char **argv)
{
    struct config cfg;
    parse_args(&cfg, argc, argv);

    struct run *r = calloc(1, sizeof *r);
    if (r == NULL)
        die(EXIT_RUN_FAILED, "out of memory");
    r->cfg = &cfg;
    r->rng = cfg.seed;
    snprintf(r->where, sizeof r->where, strchr(cfg.host, ':') ? "[%s]:%s" : "%s:%s", cfg.host, cfg.port);
    r->nconns = cfg.mode == M_LOGIN2 ? 2 * cfg.conns : cfg.conns;
    r->conns = calloc((size_t)r->nconns, sizeof *r->conns);
    if (r->conns == NULL)
        die(EXIT_RUN_FAILED, "out of memory");
    check_request_sizes(r);

    fprintf(stderr, "ldload: mode %s, %d %s to %s (%d TCP), users [0, %" PRIu32 "), %.1f s warm-up then %.1f s "
            "measured, seed %" PRIu64 "\n", mode_names[cfg.mode], cfg.conns,
            cfg.mode == M_LOGIN2 ? "pairs of connections" : "connections", r->where, r->nconns, cfg.users,
            cfg.warmup, cfg.seconds, cfg.seed);
    if (cfg.mode != M_SEARCH)
        fprintf(stderr, "ldload: bind as %s\n", cfg.mode == M_BIND ? cfg.dn.s : "the entry found");
    if (cfg.mode != M_BIND) {
        fprintf(stderr, "ldload: search under %s for %s, attributes ", cfg.base, cfg.filter_text);
        for (int i = 0; i < cfg.nattrs; i++)
            fprintf(stderr, "%s%s", i ? "," : "", cfg.attrs[i]);
        fprintf(stderr, "%s%s%s\n", cfg.nattrs ? "" : "(all user attributes)",
                cfg.bind_as ? ", as " : "", cfg.bind_as ? cfg.bind_as : "");
    }

    r->ep = epoll_create1(EPOLL_CLOEXEC);
    if (r->ep < 0)
        die(EXIT_RUN_FAILED, "epoll_create1: %s", strerror(errno));
    connect_all(r);

    struct sigaction sa = { .sa_handler = on_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    uint64_t t_start = now_ns();
    for (int i = 0; i < r->nconns; i++) {
        struct conn *c = &r->conns[i];
        if (cfg.mode == M_LOGIN2) {
            c->peer = &r->conns[i ^ 1];
            if (i & 1) {            /* odd: the bind connection of the pair */
                c->phase = P_IDLE;
                continue;
            }
        }
        if (cfg.bind_as != NULL)
            send_bind(r, c, cfg.bind_as, strlen(cfg.bind_as), cfg.bind_password, P_SVC_BIND);
        else
            start_op(r, c);
    }
    event_loop(r, t_start);
    if (!r->measuring)
        die(EXIT_RUN_FAILED, "interrupted during the warm-up: no figures");
    int status = report(r);
    close_all(r);
    free(r->conns);
    free(r);
    return status;
}
