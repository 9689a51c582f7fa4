/*
 * sse_reader: a native load generator for the game event streams (bench/streams.py).
 *
 * Holds COUNT Server-Sent-Events streams open (one thread, epoll, non-blocking sockets) and
 * measures delivery, as bench/streams.py's Python reader does, without measuring itself:
 *
 *     cc -O2 -o sse_reader bench/sse_reader.c
 *     sse_reader HOST PORT GAMES_FILE COUNT [--batch 50] [--open-seconds 180] [--no-timestamps]
 *
 * GAMES_FILE lists one game id per line; stream i watches game i mod games. Each stream is
 * `GET /api/v1/games/{id}/events/?after=0 HTTP/1.1` with `Accept: text/event-stream`. Streams
 * are opened BATCH at a time: the next batch starts when every stream of this one is open (its
 * `retry:` arrived, which the server sends after subscribing) or ended, or the OPEN_SECONDS for
 * the whole opening are over (each batch then waits 0.1 s at least). A response other than 200
 * ends its stream with the status and the body's first bytes.
 *
 * Control, one line each way (stdin: commands; stdout: one JSON object per line):
 *   (no command)          once the opening is over:
 *                         {"opened", "failed": {reason: n}, "seconds", "open_now", "nofile", ...}
 *   status                {"open_now", "opened", "events", "cpu": {"user", "system"}}
 *   drain S VERSIONS [OUT]
 *                         VERSIONS: lines "game-id final-version". Waits until every stream not
 *                         ended has reached its game's final version, or S seconds; writes every
 *                         delivered event since the start to OUT (default VERSIONS.latencies) as
 *                         native-endian float64 triples (created_at epoch seconds, latency s,
 *                         reader lag s or NaN) and answers {"open_now", "behind", "missing",
 *                         "events", "keepalives", "gaps", "dups", "dropped": {reason: n},
 *                         "latencies_file", "latencies_count", "waited", "cpu"}
 *   close                 closes every stream, answers {"closed": true, "cpu"} and exits.
 * End of stdin: exits at once. An unknown command answers {"error": ...}.
 *
 * Per stream: last seq, events, gaps (seq != last + 1, or an `id:` that disagrees with the
 * data's seq), duplicates (seq <= last: not counted as events), keep-alives (a message made of
 * comment lines only), how it ended. Latency = CLOCK_REALTIME when the read that completed the
 * message returned - the data's created_at (ISO 8601, `Z` or an offset; no offset: UTC). Reader
 * lag = that clock - the kernel's receive timestamp of the read (SO_TIMESTAMPNS; on loopback,
 * about when the server's proxy sent it): the part of the latency spent waiting for this reader.
 * The figures match the Python reader's (bench/streams.py `_read_stream`, `_reader_main`).
 *
 * Linux, C99, libc only.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define STDIN_TAG UINT32_MAX
#define RECV_SIZE (256 * 1024)
#define MAX_HEAD (64 * 1024)
#define MAX_MESSAGE (64u * 1024 * 1024)
#define MAX_REASONS 256
#define ERROR_BODY 120
#define TICK 0.05

enum { ST_IDLE, ST_CONNECTING, ST_HEAD, ST_BODY, ST_ERRBODY, ST_DONE };
enum { CK_SIZE, CK_EXT, CK_SIZE_LF, CK_DATA, CK_DATA_CR, CK_DATA_LF };

typedef struct {
    int fd;
    uint32_t game;
    uint8_t state, chunked, opened, ck;
    uint8_t ck_digits, end_after;
    int16_t ended;         /* index in reasons[], -1 while the stream lasts */
    int status;
    uint64_t ck_left;      /* chunk size being read, then the bytes left in the chunk */
    char *buf;             /* the response head, then the SSE body not yet parsed */
    size_t len, cap;
    size_t scan, line;     /* where to look for the next line end; where the line began */
    size_t err_want;
    double err_deadline;
    int64_t last;
    uint64_t events, keepalives, gaps, dups;
    size_t sent;
} Stream;

static const char *host, *port_text;
static struct addrinfo *address;
static int ep = -1;
static Stream *streams;
static size_t nstreams;
static char **games;
static size_t ngames;
static size_t *game_order; /* indexes of games sorted by id, for the drain's lookups */
static int64_t *finals;
static char *reasons[MAX_REASONS];
static size_t nreasons;
static char *recvbuf;
static double *records; /* created_at, latency, reader lag */
static size_t nrecords, caprecords;
static int timestamps = 1;
static char *scratch; /* the data of a message with several data lines */
static size_t scratch_cap;

/* ---------------------------------------------------------------------------------------- */
/* small helpers */

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("sse_reader: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xrealloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) die("out of memory (%zu bytes)", n);
    return q;
}

static double mono(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int intern(const char *text) {
    for (size_t i = 0; i < nreasons; i++)
        if (strcmp(reasons[i], text) == 0) return (int)i;
    if (nreasons == MAX_REASONS) return MAX_REASONS - 1;
    /* the last one collects the rest */
    reasons[nreasons] = strdup(nreasons == MAX_REASONS - 1 ? "other reasons" : text);
    if (!reasons[nreasons]) die("out of memory");
    return (int)nreasons++;
}

/* A JSON writer into a growing buffer, one line per answer. */
static char *out;
static size_t outlen, outcap;

static void put(const char *fmt, ...) {
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(out + outlen, outcap - outlen, fmt, ap);
        va_end(ap);
        if (n < 0) die("vsnprintf");
        if ((size_t)n < outcap - outlen) {
            outlen += (size_t)n;
            return;
        }
        outcap = (outcap + (size_t)n) * 2;
        out = xrealloc(out, outcap);
    }
}

static void put_string(const char *s) {
    put("\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') put("\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) put("\\u%04x", *p);
        else put("%c", *p);
    }
    put("\"");
}

static void begin(void) {
    if (!out) {
        outcap = 4096;
        out = xrealloc(NULL, outcap);
    }
    outlen = 0;
}

static void finish(void) {
    put("\n");
    if (fwrite(out, 1, outlen, stdout) != outlen || fflush(stdout) != 0) exit(1);
}

static void put_cpu(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    put("\"cpu\": {\"user\": %.6f, \"system\": %.6f}",
        (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
        (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6);
}

/* Counts of the reasons of the streams that match: opened (1), not opened (0). */
static void put_reasons(int opened, size_t extra_count, const char *extra) {
    size_t *counts = calloc(nreasons ? nreasons : 1, sizeof *counts);
    if (!counts) die("out of memory");
    for (size_t i = 0; i < nstreams; i++)
        if (streams[i].ended >= 0 && streams[i].opened == opened) counts[streams[i].ended]++;
    put("{");
    int first = 1;
    for (size_t r = 0; r < nreasons; r++) {
        if (!counts[r]) continue;
        put(first ? "" : ", ");
        put_string(reasons[r]);
        put(": %zu", counts[r]);
        first = 0;
    }
    if (extra_count) {
        put(first ? "" : ", ");
        put_string(extra);
        put(": %zu", extra_count);
    }
    put("}");
    free(counts);
}

static size_t open_now(void) {
    size_t n = 0;
    for (size_t i = 0; i < nstreams; i++) n += streams[i].opened && streams[i].state != ST_DONE;
    return n;
}

/* ---------------------------------------------------------------------------------------- */
/* streams: connect, request, end */

static void end_stream(Stream *s, const char *reason) {
    if (s->state == ST_DONE) return;
    if (s->fd >= 0) close(s->fd); /* also leaves the epoll set */
    s->fd = -1;
    s->state = ST_DONE;
    s->ended = (int16_t)intern(reason);
    free(s->buf);
    s->buf = NULL;
    s->len = s->cap = s->scan = s->line = 0;
}

static void end_errno(Stream *s, const char *what, int err) {
    char text[200];
    const char *kind = err == ECONNREFUSED ? "ConnectionRefusedError"
                       : err == ECONNRESET ? "ConnectionResetError"
                       : err == EPIPE      ? "BrokenPipeError"
                       : err == ETIMEDOUT  ? "TimeoutError"
                                           : "OSError";
    snprintf(text, sizeof text, "%s: %s: [Errno %d] %s", kind, what, err, strerror(err));
    end_stream(s, text);
}

static void reserve(Stream *s, size_t more) {
    if (s->len + more <= s->cap) return;
    size_t cap = s->cap ? s->cap : 1024;
    while (cap < s->len + more) cap *= 2;
    s->buf = xrealloc(s->buf, cap);
    s->cap = cap;
}

static void start_stream(Stream *s) {
    s->fd = socket(address->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s->fd < 0) {
        int err = errno;
        s->state = ST_CONNECTING;
        end_errno(s, "socket", err);
        return;
    }
    int one = 1;
    setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (timestamps) setsockopt(s->fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one);
    s->state = ST_CONNECTING;
    if (connect(s->fd, address->ai_addr, address->ai_addrlen) < 0 && errno != EINPROGRESS) {
        end_errno(s, "connect", errno);
        return;
    }
    struct epoll_event ev = {.events = EPOLLOUT | EPOLLIN, .data.u32 = (uint32_t)(s - streams)};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, s->fd, &ev) < 0) end_errno(s, "epoll_ctl", errno);
}

static void send_request(Stream *s) {
    char request[1024];
    int n = snprintf(request, sizeof request,
                     "GET /api/v1/games/%s/events/?after=0 HTTP/1.1\r\nHost: %s:%s\r\n"
                     "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n",
                     games[s->game], host, port_text);
    if (n < 0 || (size_t)n >= sizeof request) {
        end_stream(s, "ValueError: game id too long");
        return;
    }
    while (s->sent < (size_t)n) {
        ssize_t w = send(s->fd, request + s->sent, (size_t)n - s->sent, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) return; /* EPOLLOUT again */
            if (errno == EINTR) continue;
            end_errno(s, "send", errno);
            return;
        }
        s->sent += (size_t)w;
    }
    /* Edge-triggered: a read shorter than the buffer has emptied the socket (TCP), and any later
     * arrival is a new edge; a level-triggered item would be polled once more per event. */
    struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET,
                             .data.u32 = (uint32_t)(s - streams)};
    if (epoll_ctl(ep, EPOLL_CTL_MOD, s->fd, &ev) < 0) {
        end_errno(s, "epoll_ctl", errno);
        return;
    }
    s->state = ST_HEAD;
}

/* ---------------------------------------------------------------------------------------- */
/* an event's data: the top-level "seq" and "created_at" of a JSON object */

static const char *skip_ws(const char *p, const char *e) {
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    return p;
}

/* p at the opening quote; returns just past the closing one, or NULL */
static const char *skip_string(const char *p, const char *e) {
    for (p++; p < e; p++) {
        if (*p == '\\') p++;
        else if (*p == '"') return p + 1;
    }
    return NULL;
}

static const char *skip_value(const char *p, const char *e) {
    p = skip_ws(p, e);
    if (p >= e) return NULL;
    if (*p == '"') return skip_string(p, e);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (p < e) {
            char c = *p;
            if (c == '"') {
                p = skip_string(p, e);
                if (!p) return NULL;
                continue;
            }
            if (c == '{' || c == '[') depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0) return p + 1;
            }
            p++;
        }
        return NULL;
    }
    const char *start = p;
    while (p < e && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\t' &&
           *p != '\r' && *p != '\n')
        p++;
    return p > start ? p : NULL;
}

static int parse_int(const char *p, const char *e, int64_t *value) {
    int negative = 0;
    if (p < e && (*p == '-' || *p == '+')) negative = *p++ == '-';
    if (p >= e || *p < '0' || *p > '9') return 0;
    int64_t v = 0;
    for (; p < e && *p >= '0' && *p <= '9'; p++) {
        if (v > (INT64_MAX - 9) / 10) return 0;
        v = v * 10 + (*p - '0');
    }
    *value = negative ? -v : v;
    return 1;
}

static int parse_event(const char *p, const char *e, int64_t *seq, const char **created,
                       size_t *created_len) {
    int have_seq = 0;
    *created = NULL;
    p = skip_ws(p, e);
    if (p >= e || *p != '{') return 0;
    p = skip_ws(p + 1, e);
    if (p < e && *p == '}') return 0;
    while (p < e) {
        if (*p != '"') return 0;
        const char *key = p + 1;
        const char *q = skip_string(p, e);
        if (!q) return 0;
        size_t keylen = (size_t)(q - 1 - key);
        p = skip_ws(q, e);
        if (p >= e || *p != ':') return 0;
        p = skip_ws(p + 1, e);
        if (keylen == 3 && memcmp(key, "seq", 3) == 0) {
            /* JSON numbers only; 12.0 is read as 12 */
            if (!parse_int(p, e, seq)) return 0;
            have_seq = 1;
            p = skip_value(p, e);
        } else if (keylen == 10 && memcmp(key, "created_at", 10) == 0 && p < e && *p == '"') {
            q = skip_string(p, e);
            if (!q) return 0;
            *created = p + 1;
            *created_len = (size_t)(q - 1 - (p + 1));
            p = q;
        } else {
            p = skip_value(p, e);
        }
        if (!p) return 0;
        p = skip_ws(p, e);
        if (p < e && *p == ',') {
            p = skip_ws(p + 1, e);
            continue;
        }
        if (p < e && *p == '}') break;
        return 0;
    }
    return have_seq;
}

static int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int digits(const char *p, int n, int *value) {
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') return 0;
        v = v * 10 + (p[i] - '0');
    }
    *value = v;
    return 1;
}

/* 2026-12-01T03:38:45.051521Z, ...+00:00, ...-0130, fractions of any length; seconds since the
 * epoch as whole seconds and a fraction, kept apart for the precision of the subtraction. */
static int parse_time(const char *p, size_t n, int64_t *whole, double *fraction) {
    int y, mo, d, h, mi, s;
    if (n < 19 || !digits(p, 4, &y) || p[4] != '-' || !digits(p + 5, 2, &mo) || p[7] != '-' ||
        !digits(p + 8, 2, &d) || (p[10] != 'T' && p[10] != 't' && p[10] != ' ') ||
        !digits(p + 11, 2, &h) || p[13] != ':' || !digits(p + 14, 2, &mi) || p[16] != ':' ||
        !digits(p + 17, 2, &s) || mo < 1 || mo > 12 || d < 1 || d > 31)
        return 0;
    size_t i = 19;
    double frac = 0, scale = 0.1;
    if (i < n && (p[i] == '.' || p[i] == ',')) {
        i++;
        if (i >= n || p[i] < '0' || p[i] > '9') return 0;
        for (; i < n && p[i] >= '0' && p[i] <= '9'; i++, scale /= 10) frac += (p[i] - '0') * scale;
    }
    int64_t offset = 0;
    if (i < n && (p[i] == 'Z' || p[i] == 'z')) {
        i++;
    } else if (i < n && (p[i] == '+' || p[i] == '-')) {
        int sign = p[i] == '-' ? -1 : 1, oh, om = 0;
        i++;
        if (i + 2 > n || !digits(p + i, 2, &oh)) return 0;
        i += 2;
        if (i < n && p[i] == ':') i++;
        if (i + 2 <= n && digits(p + i, 2, &om)) i += 2;
        offset = sign * (oh * 3600 + om * 60);
    }
    if (i != n) return 0;
    *whole = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset;
    *fraction = frac;
    return 1;
}

/* ---------------------------------------------------------------------------------------- */
/* SSE */

static void record(double created, double latency, double lag) {
    if (nrecords + 3 > caprecords) {
        caprecords = caprecords ? caprecords * 2 : 3 * 65536;
        records = xrealloc(records, caprecords * sizeof *records);
    }
    records[nrecords++] = created;
    records[nrecords++] = latency;
    records[nrecords++] = lag;
}

static void bad_data(Stream *s, const char *what, const char *data, size_t n) {
    char text[200];
    int shown = (int)(n < 60 ? n : 60);
    snprintf(text, sizeof text, "ValueError: %s: %.*s", what, shown, data);
    for (char *c = text; *c; c++)
        if ((unsigned char)*c < 0x20) *c = ' ';
    end_stream(s, text);
}

/* One message: lines of `field: value`, comments (`:`), without its blank line. */
static void message(Stream *s, const char *m, size_t n, const struct timespec *now,
                    const struct timespec *kernel) {
    int comment = 0, fields = 0, retry = 0, have_id = 0, data_lines = 0;
    const char *id = NULL, *data = NULL;
    size_t id_len = 0, data_len = 0;
    const char *e = m + n;
    while (m < e) {
        const char *nl = memchr(m, '\n', (size_t)(e - m));
        const char *end = nl ? nl : e;
        const char *line_end = end > m && end[-1] == '\r' ? end - 1 : end;
        size_t len = (size_t)(line_end - m);
        if (len && *m == ':') {
            comment = 1;
        } else {
            const char *colon = memchr(m, ':', len);
            size_t name_len = colon ? (size_t)(colon - m) : len;
            const char *value = colon ? colon + 1 : line_end;
            if (value < line_end && *value == ' ') value++;
            size_t value_len = (size_t)(line_end - value);
            fields++;
            if (name_len == 5 && memcmp(m, "retry", 5) == 0) {
                retry = 1;
            } else if (name_len == 2 && memcmp(m, "id", 2) == 0) {
                have_id = 1;
                id = value;
                id_len = value_len;
            } else if (name_len == 4 && memcmp(m, "data", 4) == 0) {
                if (data_lines == 0) {
                    data = value;
                    data_len = value_len;
                } else { /* several data lines: joined by newlines (the SSE rule) */
                    size_t need = data_len + 1 + value_len;
                    if (need > scratch_cap) {
                        scratch_cap = need * 2;
                        scratch = xrealloc(scratch, scratch_cap);
                    }
                    if (data != scratch) memmove(scratch, data, data_len);
                    scratch[data_len] = '\n';
                    memcpy(scratch + data_len + 1, value, value_len);
                    data = scratch;
                    data_len = need;
                }
                data_lines++;
            }
        }
        m = nl ? nl + 1 : e;
    }
    if (retry) s->opened = 1;
    if (comment && !fields) s->keepalives++;
    if (!data_lines) return;
    int64_t seq;
    const char *created;
    size_t created_len = 0;
    if (!parse_event(data, data + data_len, &seq, &created, &created_len)) {
        bad_data(s, "no seq in the event's data", data, data_len);
        return;
    }
    if (have_id) {
        int64_t value;
        const char *p = id, *idend = id + id_len;
        if (!parse_int(p, idend, &value) || value != seq) s->gaps++;
    }
    if (seq <= s->last) {
        s->dups++;
        return;
    }
    if (seq != s->last + 1) s->gaps++;
    s->last = seq;
    s->events++;
    int64_t whole;
    double fraction;
    if (!created || !parse_time(created, created_len, &whole, &fraction)) {
        bad_data(s, "bad created_at", created ? created : data, created ? created_len : data_len);
        return;
    }
    double latency = (double)(now->tv_sec - whole) + ((double)now->tv_nsec * 1e-9 - fraction);
    double lag = NAN;
    if (kernel && kernel->tv_sec)
        lag = (double)(now->tv_sec - kernel->tv_sec) +
              (double)(now->tv_nsec - kernel->tv_nsec) * 1e-9;
    record((double)whole + fraction, latency, lag);
}

/* Every complete message in the stream's buffer (it begins at 0); the rest stays. */
static void messages(Stream *s, const struct timespec *now, const struct timespec *kernel) {
    size_t start = 0, line = s->line, i = s->scan;
    while (i < s->len) {
        char *nl = memchr(s->buf + i, '\n', s->len - i);
        if (!nl) {
            i = s->len;
            break;
        }
        size_t at = (size_t)(nl - s->buf);
        size_t line_end = at > line && s->buf[at - 1] == '\r' ? at - 1 : at;
        if (line_end == line) { /* a blank line ends the message */
            message(s, s->buf + start, line - start, now, kernel);
            if (s->state == ST_DONE) return;
            start = at + 1;
        }
        line = i = at + 1;
    }
    if (start) {
        memmove(s->buf, s->buf + start, s->len - start);
        s->len -= start;
        i -= start;
        line -= start;
    }
    s->scan = i;
    s->line = line;
    if (s->len > MAX_MESSAGE) end_stream(s, "ValueError: a message longer than 64 MiB");
}

/* ---------------------------------------------------------------------------------------- */
/* HTTP: the head, the chunked (or identity) body */

static void append(Stream *s, const char *p, size_t n) {
    reserve(s, n);
    memcpy(s->buf + s->len, p, n);
    s->len += n;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void body(Stream *s, const char *p, size_t n, const struct timespec *now,
                 const struct timespec *kernel) {
    if (!s->chunked) {
        append(s, p, n);
        messages(s, now, kernel);
        return;
    }
    const char *e = p + n;
    while (p < e && !s->end_after) {
        switch (s->ck) {
        case CK_SIZE: {
            char c = *p++;
            int v = hexval(c);
            if (v >= 0) {
                if (++s->ck_digits > 15) goto bad;
                s->ck_left = s->ck_left * 16 + (uint64_t)v;
            } else if (c == ';' || c == ' ' || c == '\t') {
                s->ck = CK_EXT;
            } else if (c == '\r') {
                s->ck = CK_SIZE_LF;
            } else if (c == '\n') {
                goto size_done;
            } else {
                goto bad;
            }
            continue;
        }
        case CK_EXT:
            if (*p++ == '\n') goto size_done;
            continue;
        case CK_SIZE_LF:
            if (*p++ != '\n') goto bad;
            goto size_done;
        case CK_DATA: {
            size_t take = (size_t)(e - p) < s->ck_left ? (size_t)(e - p) : (size_t)s->ck_left;
            append(s, p, take);
            p += take;
            s->ck_left -= take;
            if (!s->ck_left) s->ck = CK_DATA_CR;
            continue;
        }
        case CK_DATA_CR:
        case CK_DATA_LF:
            if (s->ck == CK_DATA_CR && *p == '\r') {
                p++;
                s->ck = CK_DATA_LF;
                continue;
            }
            if (*p++ != '\n') goto bad; /* CRLF, or a bare LF */
            s->ck = CK_SIZE;
            s->ck_left = 0;
            s->ck_digits = 0;
            continue;
        }
    size_done:
        if (!s->ck_digits) goto bad;
        if (s->ck_left == 0) s->end_after = 1; /* the last chunk: the server ended the stream */
        else s->ck = CK_DATA;
    }
    messages(s, now, kernel);
    if (s->state != ST_DONE && s->end_after) end_stream(s, "EOFError: the server ended the stream");
    return;
bad:
    messages(s, now, kernel);
    end_stream(s, "ValueError: bad chunked encoding");
}

static void error_done(Stream *s) {
    char text[64 + 4 * ERROR_BODY];
    size_t shown = s->len < ERROR_BODY ? s->len : ERROR_BODY;
    int n = snprintf(text, sizeof text, "RuntimeError: HTTP %d ", s->status);
    for (size_t i = 0; i < shown; i++) {
        unsigned char c = (unsigned char)s->buf[i];
        text[n++] = c < 0x20 || c >= 0x7f ? ' ' : (char)c;
    }
    while (n > 0 && text[n - 1] == ' ') n--;
    text[n] = 0;
    end_stream(s, text);
}

static void head(Stream *s, const struct timespec *now, const struct timespec *kernel) {
    size_t from = s->scan > 3 ? s->scan - 3 : 0;
    char *end = memmem(s->buf + from, s->len - from, "\r\n\r\n", 4);
    if (!end) {
        s->scan = s->len;
        if (s->len > MAX_HEAD) end_stream(s, "ValueError: a response head longer than 64 KiB");
        return;
    }
    size_t head_len = (size_t)(end - s->buf) + 4;
    *end = 0;
    char *line = s->buf, *next = strstr(line, "\r\n");
    if (next) *next = 0;
    int status = 0;
    if (strncmp(line, "HTTP/", 5) != 0 || sscanf(line, "HTTP/%*s %d", &status) != 1) {
        end_stream(s, "ValueError: not an HTTP response");
        return;
    }
    int64_t content_length = -1;
    int chunked = 0;
    while (next) {
        line = next + 2;
        next = strstr(line, "\r\n");
        if (next) *next = 0;
        char *colon = strchr(line, ':');
        if (!colon) continue;
        *colon = 0;
        char *value = colon + 1;
        while (*value == ' ' || *value == '\t') value++;
        size_t vlen = strlen(value);
        while (vlen && (value[vlen - 1] == ' ' || value[vlen - 1] == '\t')) value[--vlen] = 0;
        if (strcasecmp(line, "transfer-encoding") == 0) chunked = strcasecmp(value, "chunked") == 0;
        else if (strcasecmp(line, "content-length") == 0) content_length = strtoll(value, NULL, 10);
    }
    size_t rest = s->len - head_len;
    memmove(s->buf, s->buf + head_len, rest);
    s->len = rest;
    s->scan = s->line = 0;
    s->status = status;
    if (status != 200) {
        s->state = ST_ERRBODY;
        s->err_want = content_length > 0 ? (content_length < ERROR_BODY ? (size_t)content_length
                                                                        : ERROR_BODY)
                                         : 0;
        s->err_deadline = mono() + 5.0;
        if (s->len >= s->err_want) error_done(s);
        return;
    }
    s->state = ST_BODY;
    s->chunked = (uint8_t)chunked;
    if (rest) {
        /* the body's first bytes are in the buffer: decode them from a copy */
        char *copy = xrealloc(NULL, rest);
        memcpy(copy, s->buf, rest);
        s->len = 0;
        body(s, copy, rest, now, kernel);
        free(copy);
    }
}

/* One read: the bytes read, 0 at the end of the stream, -1 when there was nothing to read. */
static ssize_t readable(Stream *s) {
    char control[CMSG_SPACE(sizeof(struct timespec))];
    struct iovec iov = {.iov_base = recvbuf, .iov_len = RECV_SIZE};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1};
    if (timestamps) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
    }
    ssize_t n = recvmsg(s->fd, &msg, 0);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return -1;
        end_errno(s, "recv", errno);
        return 0;
    }
    if (n == 0) {
        if (s->state == ST_ERRBODY) error_done(s);
        else if (s->state == ST_BODY && !s->chunked)
            end_stream(s, "EOFError: the server closed the connection");
        else if (s->state == ST_BODY)
            end_stream(s, "IncompleteReadError: the server closed the connection mid-stream");
        else end_stream(s, "IncompleteReadError: the server closed the connection before the head");
        return 0;
    }
    struct timespec now, kernel = {0, 0};
    clock_gettime(CLOCK_REALTIME, &now);
    if (timestamps)
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS)
                memcpy(&kernel, CMSG_DATA(c), sizeof kernel);
    switch (s->state) {
    case ST_HEAD:
        append(s, recvbuf, (size_t)n);
        head(s, &now, &kernel);
        break;
    case ST_BODY:
        body(s, recvbuf, (size_t)n, &now, &kernel);
        break;
    case ST_ERRBODY:
        append(s, recvbuf, (size_t)n);
        if (s->len >= s->err_want) error_done(s);
        break;
    }
    return n;
}

static void on_event(Stream *s, uint32_t events) {
    if (s->state == ST_CONNECTING) {
        int err = 0;
        socklen_t len = sizeof err;
        if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0) err = errno;
        if (err) {
            end_errno(s, "connect", err);
            return;
        }
        if (events & (EPOLLOUT | EPOLLERR | EPOLLHUP)) send_request(s);
        return;
    }
    if (s->state == ST_DONE) return;
    if (!(events & (EPOLLIN | EPOLLERR | EPOLLHUP | EPOLLRDHUP))) return;
    /* once, unless the buffer filled up; to the end when the peer has closed or failed */
    int until_end = (events & (EPOLLERR | EPOLLHUP | EPOLLRDHUP)) != 0;
    for (;;) {
        ssize_t n = readable(s);
        if (n <= 0 || s->state == ST_DONE || ((size_t)n < RECV_SIZE && !until_end)) break;
    }
}

/* ---------------------------------------------------------------------------------------- */
/* the loop */

static char line[65536];
static size_t line_len;
static int stdin_open = 1;

/* One round of epoll, waiting at most `wait` seconds. */
static void pump(double wait) {
    static struct epoll_event events[1024];
    int ms = wait <= 0 ? 0 : (int)(wait * 1000) + 1;
    int n = epoll_wait(ep, events, 1024, ms);
    if (n < 0) {
        if (errno == EINTR) return;
        die("epoll_wait: %s", strerror(errno));
    }
    for (int i = 0; i < n; i++) {
        uint32_t tag = events[i].data.u32;
        if (tag == STDIN_TAG) {
            if (line_len == sizeof line) die("a command line longer than %zu bytes", sizeof line);
            ssize_t r = read(0, line + line_len, sizeof line - line_len);
            if (r > 0) line_len += (size_t)r;
            else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
                stdin_open = 0;
                epoll_ctl(ep, EPOLL_CTL_DEL, 0, NULL);
            }
        } else {
            on_event(&streams[tag], events[i].events);
        }
    }
    /* the bodies of error responses that do not come */
    static double next_sweep;
    double t = mono();
    if (t >= next_sweep) {
        next_sweep = t + 0.5;
        for (size_t i = 0; i < nstreams; i++)
            if (streams[i].state == ST_ERRBODY && t >= streams[i].err_deadline)
                error_done(&streams[i]);
    }
}

static void read_games(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) die("%s: %s", path, strerror(errno));
    char text[512];
    size_t cap = 0;
    while (fgets(text, sizeof text, f)) {
        char *p = text, *e;
        while (*p == ' ' || *p == '\t') p++;
        e = p + strlen(p);
        while (e > p && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t')) *--e = 0;
        if (!*p) continue;
        if (ngames == cap) {
            cap = cap ? cap * 2 : 64;
            games = xrealloc(games, cap * sizeof *games);
        }
        games[ngames] = strdup(p);
        if (!games[ngames]) die("out of memory");
        ngames++;
    }
    fclose(f);
    if (!ngames) die("%s: no game id", path);
}

static int by_id(const void *a, const void *b) {
    return strcmp(games[*(const size_t *)a], games[*(const size_t *)b]);
}

static long find_game(const char *id) {
    size_t lo = 0, hi = ngames;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(games[game_order[mid]], id);
        if (c == 0) return (long)game_order[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

static rlim_t raise_nofile(size_t want) {
    struct rlimit r;
    if (getrlimit(RLIMIT_NOFILE, &r) < 0) return 0;
    rlim_t target = (rlim_t)want;
    if (r.rlim_max != RLIM_INFINITY && target > r.rlim_max) target = r.rlim_max;
    if (target > r.rlim_cur) {
        r.rlim_cur = target;
        setrlimit(RLIMIT_NOFILE, &r);
        getrlimit(RLIMIT_NOFILE, &r);
    }
    return r.rlim_cur;
}

static void opening(size_t batch, double open_seconds, rlim_t nofile) {
    double began = mono();
    for (size_t offset = 0; offset < nstreams; offset += batch) {
        size_t end = offset + batch < nstreams ? offset + batch : nstreams;
        for (size_t i = offset; i < end; i++) start_stream(&streams[i]);
        double left = open_seconds - (mono() - began);
        double deadline = mono() + (left > 0.1 ? left : 0.1);
        for (;;) {
            size_t waiting = 0;
            for (size_t i = offset; i < end; i++)
                waiting += !streams[i].opened && streams[i].state != ST_DONE;
            double t = mono();
            if (!waiting || t >= deadline) break;
            pump(deadline - t < TICK ? deadline - t : TICK);
        }
    }
    size_t opened = 0, pending = 0;
    for (size_t i = 0; i < nstreams; i++) {
        opened += streams[i].opened;
        pending += !streams[i].opened && streams[i].state != ST_DONE;
    }
    char extra[64];
    snprintf(extra, sizeof extra, "not open after %.0f s", open_seconds);
    begin();
    put("{\"opened\": %zu, \"failed\": ", opened);
    put_reasons(0, pending, extra);
    put(", \"seconds\": %.6f, \"open_now\": %zu, \"nofile\": %llu, \"timestamps\": %s, ",
        mono() - began, open_now(), (unsigned long long)nofile, timestamps ? "true" : "false");
    put_cpu();
    put("}");
    finish();
}

static void drain(double seconds, const char *versions, const char *target) {
    FILE *f = fopen(versions, "r");
    if (!f) {
        begin();
        put("{\"error\": ");
        char text[600];
        snprintf(text, sizeof text, "%s: %s", versions, strerror(errno));
        put_string(text);
        put("}");
        finish();
        return;
    }
    for (size_t g = 0; g < ngames; g++) finals[g] = 0;
    char text[600], id[512];
    long long version;
    while (fgets(text, sizeof text, f))
        if (sscanf(text, "%511s %lld", id, &version) == 2) {
            long g = find_game(id);
            if (g >= 0) finals[g] = version;
        }
    fclose(f);
    double began = mono(), deadline = began + seconds;
    for (;;) {
        size_t behind = 0;
        for (size_t i = 0; i < nstreams && !behind; i++)
            behind += streams[i].state != ST_DONE && streams[i].last < finals[streams[i].game];
        double t = mono();
        if (!behind || t >= deadline) break;
        pump(deadline - t < TICK ? deadline - t : TICK);
    }
    double waited = mono() - began;
    size_t behind = 0;
    uint64_t missing = 0, events = 0, keepalives = 0, gaps = 0, dups = 0;
    for (size_t i = 0; i < nstreams; i++) {
        Stream *s = &streams[i];
        int64_t final = finals[s->game];
        behind += s->last < final;
        if (s->opened && final > s->last) missing += (uint64_t)(final - s->last);
        events += s->events;
        keepalives += s->keepalives;
        gaps += s->gaps;
        dups += s->dups;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s%s", target ? target : versions, target ? "" : ".latencies");
    FILE *w = fopen(path, "wb");
    int written = w && fwrite(records, sizeof *records, nrecords, w) == nrecords;
    int err = errno;
    if (w && fclose(w) != 0) {
        written = 0;
        err = errno;
    }
    begin();
    put("{\"open_now\": %zu, \"behind\": %zu, \"missing\": %llu, \"events\": %llu, "
        "\"keepalives\": %llu, \"gaps\": %llu, \"dups\": %llu, \"dropped\": ",
        open_now(), behind, (unsigned long long)missing, (unsigned long long)events,
        (unsigned long long)keepalives, (unsigned long long)gaps, (unsigned long long)dups);
    put_reasons(1, 0, NULL);
    put(", \"latencies_file\": ");
    put_string(path);
    put(", \"latencies_count\": %zu, \"record\": \"created_at latency reader_lag (float64)\", ",
        nrecords / 3);
    if (!written) {
        char problem[4200];
        snprintf(problem, sizeof problem, "%s: %s", path, strerror(err));
        put("\"error\": ");
        put_string(problem);
        put(", ");
    }
    put("\"waited\": %.6f, ", waited);
    put_cpu();
    put("}");
    finish();
}

static void close_all(void) {
    for (size_t i = 0; i < nstreams; i++) {
        if (streams[i].state == ST_IDLE) streams[i].state = ST_CONNECTING;
        end_stream(&streams[i], "closed by the bench");
    }
}

static void usage(void) {
    fprintf(stderr, "usage: sse_reader HOST PORT GAMES_FILE COUNT [--batch N] [--open-seconds S] "
                    "[--no-timestamps]\n");
    exit(2);
}

int main(int argc, char **argv) {
    if (argc < 5) usage();
    host = argv[1];
    port_text = argv[2];
    read_games(argv[3]);
    char *endp;
    long long count = strtoll(argv[4], &endp, 10);
    if (*endp || count < 0) usage();
    size_t batch = 50;
    double open_seconds = 180;
    for (int i = 5; i < argc; i++) {
        if (strcmp(argv[i], "--batch") == 0 && i + 1 < argc) batch = (size_t)atol(argv[++i]);
        else if (strcmp(argv[i], "--open-seconds") == 0 && i + 1 < argc)
            open_seconds = atof(argv[++i]);
        else if (strcmp(argv[i], "--no-timestamps") == 0) timestamps = 0;
        else usage();
    }
    if (!batch) batch = 1;
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, SIG_IGN); /* the parent ends the run (close, or the end of stdin) */

    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM};
    int rc = getaddrinfo(host, port_text, &hints, &address);
    if (rc) die("%s:%s: %s", host, port_text, gai_strerror(rc));

    rlim_t nofile = raise_nofile((size_t)count + 64);
    nstreams = (size_t)count;
    streams = calloc(nstreams ? nstreams : 1, sizeof *streams);
    finals = calloc(ngames, sizeof *finals);
    game_order = calloc(ngames, sizeof *game_order);
    recvbuf = malloc(RECV_SIZE);
    if (!streams || !finals || !game_order || !recvbuf) die("out of memory");
    for (size_t g = 0; g < ngames; g++) game_order[g] = g;
    qsort(game_order, ngames, sizeof *game_order, by_id);
    for (size_t i = 0; i < nstreams; i++) {
        streams[i].fd = -1;
        streams[i].game = (uint32_t)(i % ngames);
        streams[i].ended = -1;
    }
    ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0) die("epoll_create1: %s", strerror(errno));

    opening(batch, open_seconds, nofile);

    struct epoll_event ev = {.events = EPOLLIN, .data.u32 = STDIN_TAG};
    if (epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev) < 0) {
        /* stdin a regular file: read it whole, as if it came all at once */
        ssize_t r;
        while (line_len < sizeof line && (r = read(0, line + line_len, sizeof line - line_len)) > 0)
            line_len += (size_t)r;
        stdin_open = 0;
    }
    for (;;) {
        char *nl = memchr(line, '\n', line_len);
        if (!nl && !stdin_open && line_len) nl = line + line_len; /* a last line without LF */
        if (!nl) {
            if (!stdin_open) break;
            pump(1.0);
            continue;
        }
        size_t used = (size_t)(nl - line) + (nl < line + line_len);
        char command[sizeof line + 1];
        memcpy(command, line, (size_t)(nl - line));
        command[nl - line] = 0;
        memmove(line, line + used, line_len - used);
        line_len -= used;

        char *words[4] = {0};
        int nwords = 0;
        for (char *tok = strtok(command, " \t\r"); tok && nwords < 4; tok = strtok(NULL, " \t\r"))
            words[nwords++] = tok;
        if (!nwords) continue;
        if (strcmp(words[0], "status") == 0) {
            uint64_t events = 0;
            size_t opened = 0;
            for (size_t i = 0; i < nstreams; i++) {
                events += streams[i].events;
                opened += streams[i].opened;
            }
            begin();
            put("{\"open_now\": %zu, \"opened\": %zu, \"events\": %llu, ", open_now(), opened,
                (unsigned long long)events);
            put_cpu();
            put("}");
            finish();
        } else if (strcmp(words[0], "drain") == 0 && nwords >= 3) {
            drain(atof(words[1]), words[2], words[3]);
        } else if (strcmp(words[0], "close") == 0) {
            close_all();
            begin();
            put("{\"closed\": true, ");
            put_cpu();
            put("}");
            finish();
            return 0;
        } else {
            begin();
            put("{\"error\": ");
            put_string("unknown command (status | drain SECONDS VERSIONS [OUT] | close)");
            put("}");
            finish();
        }
    }
    close_all();
    return 0;
}
