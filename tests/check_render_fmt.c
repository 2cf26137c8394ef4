/* check_render_fmt.c - game/render_fmt.c: render_fmt, render_int and
 * render_fixed write byte for byte what printf writes (str_add), numbers
 * on the edge of a rounding included (written into an empty string and
 * into one with room ahead, where tenths are written in place), and cut a
 * fixed string as str_add does. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "game.h"
#include "tests.h"

/* A fixed-point number with `decimals` compared with printf's. */
static void fixed_same(double x, int decimals)
{
    char want[512];
    struct str got;

    snprintf(want, sizeof(want), "%.*f", decimals, x);
    str_init(&got);
    render_fixed(&got, x, decimals);
    ck_assert_msg(strcmp(want, got.p) == 0, "%.17g with %d decimals: printf %s, render_fixed %s", x,
                  decimals, want, got.p);
    str_free(&got);
    /* After text, with room ahead (a page's buffer: written in place),
     * growable and fixed. */
    char room[64];
    str_init(&got);
    str_reserve(&got, 64);
    str_raw(&got, "x=", 2);
    render_fixed(&got, x, decimals);
    ck_assert_msg(strncmp(got.p, "x=", 2) == 0 && strcmp(want, got.p + 2) == 0 &&
                      got.need == got.len && got.len == strlen(got.p),
                  "%.17g with %d decimals, in room: printf %s, render_fixed %s", x, decimals, want,
                  got.p);
    str_free(&got);
    str_init_fixed(&got, room, sizeof(room));
    str_raw(&got, "x=", 2);
    render_fixed(&got, x, decimals);
    ck_assert_msg(strlen(want) > 60 || strcmp(want, got.p + 2) == 0,
                  "%.17g with %d decimals, fixed: printf %s, render_fixed %s", x, decimals, want,
                  got.p);
}

START_TEST(fixed_is_printfs)
{
    static const double edges[] = {
        0,     -0.0,   0.05,  -0.05,    0.15,      0.25,   0.35,          2.5,    -2.5,  0.125,
        0.375, 1.0005, 2.675, 1e-300,   -1e-20,    0.0449, 0.0451,        99.95,  999.5, 1e14,
        -1e14, 1e15,   1e300, INFINITY, -INFINITY, NAN,    123456789.125, 0.9995, 9.995, 0.45,
    };
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
        for (int d = 0; d <= 5; d++)
            fixed_same(edges[i], d);
    /* Halves and near-halves, tens of thousands of them: the exact
     * binary value decides, as in printf. */
    uint64_t r = 88172645463325252ULL;
    for (int i = 0; i < 40000; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        double x = (double)(r % 2000001) / 1000.0 - 1000.0;
        if (i % 3 == 1)
            x = nextafter(x, 1e9);
        else if (i % 3 == 2)
            x = (double)(int64_t)(r >> 20) * 0.0005 - 3e9;
        fixed_same(x, i % 4);
    }
}
END_TEST

START_TEST(ints_are_printfs)
{
    static const long long v[] = {0,
                                  1,
                                  -1,
                                  9,
                                  10,
                                  -10,
                                  2147483647LL,
                                  -2147483647LL - 1,
                                  9223372036854775807LL,
                                  -9223372036854775807LL - 1};
    for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
        char want[32];
        struct str got;
        snprintf(want, sizeof(want), "%lld", v[i]);
        str_init(&got);
        render_int(&got, v[i]);
        ck_assert_str_eq(got.p, want);
        str_free(&got);
    }
}
END_TEST

/* render_fmt and str_add on the same format and arguments, into a
 * growable string and into fixed ones of every size up to the whole. */
#define SAME(...)                                                                                  \
    do {                                                                                           \
        struct str a, b;                                                                           \
        str_init(&a);                                                                              \
        str_init(&b);                                                                              \
        str_add(&a, __VA_ARGS__);                                                                  \
        render_fmt(&b, __VA_ARGS__);                                                               \
        ck_assert_str_eq(b.p, a.p);                                                                \
        ck_assert_uint_eq(b.need, a.need);                                                         \
        for (size_t cap = 1; cap <= a.len + 1; cap++) {                                            \
            char fa[256], fb[256];                                                                 \
            struct str x, y;                                                                       \
            str_init_fixed(&x, fa, cap);                                                           \
            str_init_fixed(&y, fb, cap);                                                           \
            str_cat(&x, "\xc3\xa9");                                                               \
            str_cat(&y, "\xc3\xa9");                                                               \
            str_add(&x, __VA_ARGS__);                                                              \
            render_fmt(&y, __VA_ARGS__);                                                           \
            ck_assert_str_eq(fb, fa);                                                              \
            ck_assert_uint_eq(y.need, x.need);                                                     \
            ck_assert_uint_eq(y.len, x.len);                                                       \
        }                                                                                          \
        str_free(&a);                                                                              \
        str_free(&b);                                                                              \
    } while (0)

START_TEST(formats_are_printfs)
{
    SAME("plain text");
    SAME("%d%%%s%c", -42, "\xe2\x9c\x9a name", 'x');
    SAME("Round %d of %d: %s throws %d and lands %ld.", 3, 12, "Rocky", 40, 17L);
    SAME("Judge %d: %d-%d. %lld %u %lu %llu", 2, 10, 9, -9000000000LL, 4000000000u, 7UL, 8ULL);
    SAME("%.1f %.2f %.0f %.3f %.4f %f", 2.25, -0.005, 0.5, 1.0005, 3.14159, 2.5);
    SAME("<path d=\"M%.1f %.1fh10l-5 9z\" fill=\"%s\"/>", 99.95, -0.04, "#c0392b");
    SAME("%g %5d|%-5d|%05.1f|%+d|%x|%X|%o|%e", 0.5, 42, 42, 3.25, 7, 255, 255, 8, 12345.678);
    SAME("%*d|%-*s|%.*s|%.*f|%.*f", 4, 7, 6, "ab", 3, "abcdef", 2, 1.005, -1, 2.5);
    SAME("%.5s|%p", "abcdefgh", (void *)0);
    /* %g: whole numbers below a million written here, the rest by printf */
    SAME("%g|%g|%g|%g|%g|%g|%g", 0.0, -0.0, 20.0, -35.0, 999999.0, 1e6, -1e6);
    SAME("%g|%g|%g|%g|%g|%lg", 0.5, 2.5e-7, 123456.5, 1e300, 1.0 / 0.0, 40.0);
    SAME("%zu %zd %hhd %hu %jd %ju %td %Lf %.2Lf %.1lf %lx", (size_t)7, (ssize_t)-7, 300, 70000,
         (intmax_t)-5, (uintmax_t)5, (ptrdiff_t)-3, 1.5L, 2.675L, 0.25, 255UL);
}
END_TEST

/* A format is read once and kept by its address: the same call again,
 * with other arguments, writes what printf does; so does a text longer
 * than what is gathered at once (256 bytes), in a growable string and in
 * fixed ones that hold it or cut it. */
static void kept_once(const char *text, int i, char *fa, char *fb, size_t cap)
{
    struct str x, y;

    str_init_fixed(&x, fa, cap);
    str_init_fixed(&y, fb, cap);
    str_add(&x, "%s throws %d and lands %u, %.1f%%: %c %lld %g", text, i * 17 - 20, (unsigned)i * 9,
            i * 1.25 - 2, 'a' + i, -123456789012LL * i, i * 100.0);
    render_fmt(&y, "%s throws %d and lands %u, %.1f%%: %c %lld %g", text, i * 17 - 20,
               (unsigned)i * 9, i * 1.25 - 2, 'a' + i, -123456789012LL * i, i * 100.0);
    ck_assert_str_eq(fb, fa);
    ck_assert_uint_eq(y.need, x.need);
}

START_TEST(formats_kept_are_printfs)
{
    char longer[600], wa[1024], wb[1024];

    memset(longer, 'x', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    for (int i = 0; i < 4; i++) {
        const char *text = i == 2 ? longer : i == 3 ? "" : "Rocky";
        kept_once(text, i, wa, wb, sizeof(wa));
        kept_once(text, i, wa, wb, 300);
        kept_once(text, i, wa, wb, 7);
        const char *shorter = i == 2 ? &longer[500] : text; /* what SAME's buffers hold */
        SAME("%%%s%%%d", shorter, i);
        SAME("<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f %.1f,%.1f\"/>",
             i + 0.05, i * 2.0, 3.25 * i, 4.0, 5.5, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, -12.0 * i);
    }
}
END_TEST

Suite *render_fmt_suite(void)
{
    Suite *s = suite_create("render_fmt");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, fixed_is_printfs);
    tcase_add_test(tc, ints_are_printfs);
    tcase_add_test(tc, formats_are_printfs);
    tcase_add_test(tc, formats_kept_are_printfs);
    suite_add_tcase(s, tc);
    return s;
}
