/*
 * plan.c - fight plans (docs/plans.md): lines of orders, each maybe under a
 * round tag and behind a condition, compiled once and evaluated every round.
 *
 * plan_compile reads the whole text and either rejects it with the first
 * problem (line, column, reason) or builds a `struct plan` in which:
 *   - every line (a piece between newlines or ';') has an entry, blank and
 *     comment-only lines included, so entry i is line i + 1;
 *   - an order line holds its parsed `struct order`, checked by order_parse
 *     for the plan's ruleset, so evaluation never parses text;
 *   - a condition is a run of postfix operations in one flat array; the
 *     value stack it needs is worked out at compile time and is at most
 *     PLAN_STACK_MAX, so evaluation uses a fixed array on the C stack.
 * Evaluation (plan_eval, plan_explain, plan_summary) allocates nothing,
 * uses no regular expression and changes nothing in the plan. Every value it
 * computes is finite: variables and results are held within
 * +/-PLAN_VALUE_MAX, NaN reads as 0 and dividing by zero gives 0.
 *
 * Columns are 1-based byte offsets in the line as written (the text between
 * two separators). Condition keywords and variable names are ASCII and
 * case-insensitive.
 */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse_internal.h"
#include "util.h"

#define TAG_MAX        99              /* highest round tag */
#define NUMBER_MAX     1000000         /* largest number written in a condition */
#define FRACTION_MAX   9               /* decimals of a number that count */
#define PLAN_VALUE_MAX 1e15            /* values are held within +/- this */
#define PLAN_DEPTH_MAX 20              /* parentheses nested at most this deep */
#define PLAN_STACK_MAX 128             /* values a condition may need at once */
#define QUOTE_MAX      24              /* longest piece of text quoted in a reason */
#define WORD_QUOTE_MAX 8               /* ... in the unknown-word reason, which is long */
#define EXPLAIN_QUOTE  80              /* longest line text quoted by plan_explain */
#define SUMMARY_ROUNDS BOUT_ROUNDS_MAX /* rounds plan_summary looks at, at most */

/* The variables a condition may read (struct plan_vars). */
enum plan_var {
    VAR_ROUND,
    VAR_ROUNDS_WON,
    VAR_ROUNDS_LOST,
    VAR_SCORE,
    VAR_ENDURANCE,
    VAR_ENDURANCE_PERCENT,
    VAR_OPP,
    VAR_MY_CUTS,
    VAR_HIS_CUTS,
    VAR_MY_KNOCKDOWNS,
    VAR_HIS_KNOCKDOWNS,
    VAR_WARNINGS,
    VAR_HEALTH,
    VAR_HIS_HEALTH,
    VAR_ENERGY,
    VAR_BLEEDING,
    VAR_STUNNED
};

/* Words a condition may name: variables (constant < 0) and constants. */
static const struct {
    const char *name;
    enum plan_var var;
    int constant; /* -1 for a variable */
} plan_words[] = {
    {"round", VAR_ROUND, -1},
    {"roundswon", VAR_ROUNDS_WON, -1},
    {"roundslost", VAR_ROUNDS_LOST, -1},
    {"score", VAR_SCORE, -1},
    {"endurance", VAR_ENDURANCE, -1},
    {"end", VAR_ENDURANCE, -1},
    {"endurance_percent", VAR_ENDURANCE_PERCENT, -1},
    {"opp", VAR_OPP, -1},
    {"opponent", VAR_OPP, -1},
    {"strong", VAR_ROUND, 2},
    {"tired", VAR_ROUND, 1},
    {"weak", VAR_ROUND, 0},
    {"mycuts", VAR_MY_CUTS, -1},
    {"hiscuts", VAR_HIS_CUTS, -1},
    {"myknockdowns", VAR_MY_KNOCKDOWNS, -1},
    {"hisknockdowns", VAR_HIS_KNOCKDOWNS, -1},
    {"warnings", VAR_WARNINGS, -1},
    /* A grammar with its own plan_variables (the duel) lists which of
     * these (and of the above) its plans may use; the others take the
     * words above. */
    {"health", VAR_HEALTH, -1},
    {"hishealth", VAR_HIS_HEALTH, -1},
    {"energy", VAR_ENERGY, -1},
    {"bleeding", VAR_BLEEDING, -1},
    {"stunned", VAR_STUNNED, -1},
};
#define CLASSIC_WORDS 17 /* the words before "health": every other grammar's */
#define PLAN_WORDS    ((int)(sizeof(plan_words) / sizeof(plan_words[0])))

/* The list in the unknown-word reason; it must fit PARSE_REASON_MAX with a
 * word of WORD_QUOTE_MAX bytes, hence "end" for "endurance". */
#define VARIABLE_LIST                                                                              \
    "round, roundswon, roundslost, score, end, endurance_percent, opp, mycuts, hiscuts, "          \
    "myknockdowns, hisknockdowns, warnings"

/* Postfix operations of a condition. */
enum op_code {
    OP_NUMBER, /* push num */
    OP_VAR,    /* push the variable of plan_words[word] */
    OP_NEG,
    OP_NOT,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_EQ,
    OP_NE,
    OP_LT,
    OP_GT,
    OP_LE,
    OP_GE,
    OP_AND,
    OP_OR
};

struct plan_op {
    enum op_code code;
    int word;   /* OP_VAR: index in plan_words */
    double num; /* OP_NUMBER */
};

enum line_kind {
    LINE_NONE,  /* blank, comment or tag only: never used */
    LINE_ORDER, /* gives `order` */
    LINE_TOWEL  /* throws in the towel (a grammar with order_towel) */
};

struct plan_entry {
    const char *line; /* the line as written, in plan->text */
    enum line_kind kind;
    int from;           /* the round tag in force: used from this round on */
    int cond_at;        /* first operation of the condition in plan->code */
    int cond_len;       /* 0: no condition */
    struct order order; /* LINE_ORDER */
};

/* A compiled plan is sized to what it holds (a league turn keeps one for
 * every fighter): one block with an entry for each line and, after them,
 * the text; the conditions' operations in a second block, as many as they
 * use. */
struct plan {
    enum rules rules;
    const struct grammar *grammar; /* of `rules` */
    int lines;
    char *text;                /* the plan's text, each line NUL-terminated */
    struct plan_op *code;      /* the conditions of all lines */
    struct plan_entry entry[]; /* `lines` of them */
};

/* Tokens of the condition language. */
enum token_type {
    TOK_END,
    TOK_NUMBER,
    TOK_WORD,
    TOK_PLUS,
    TOK_MINUS,
    TOK_STAR,
    TOK_SLASH,
    TOK_OPEN,
    TOK_CLOSE,
    TOK_EQ,
    TOK_NE,
    TOK_LT,
    TOK_GT,
    TOK_LE,
    TOK_GE
};

struct token {
    enum token_type type;
    size_t at, len; /* byte offset and length in the line */
    double num;     /* TOK_NUMBER */
};

/* The state of compiling one condition. */
struct cond {
    const char *s;    /* the line, cut at its comment */
    size_t trimmed;   /* length of s without trailing whitespace */
    size_t pos;       /* where the next token starts */
    struct token tok; /* the current token */
    struct plan_op *code;
    int n, cap;     /* operations written, room */
    int sp, sp_max; /* values on the stack now, at most */
    int depth;      /* parentheses open */
    int line;
    struct parse_error *err;
    const struct grammar *g; /* the plan's: which words it may use */
};

/* ---------------------------------------------------------------- helpers */

/* 1 if plan_words[w] is a word of grammar g's plans. */
static int word_allowed(const struct grammar *g, int w)
{
    const char *list = g ? g->plan_variables : NULL, *name = plan_words[w].name;
    size_t n = strlen(name);

    if (!list)
        return w < CLASSIC_WORDS;
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == '\0'))
            return 1;
    return 0;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_word_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_word_char(char c)
{
    return is_word_start(c) || is_digit(c);
}

/* 1 if the n bytes at s spell `word` (lower case) in any case. */
static int word_is(const char *s, size_t n, const char *word)
{
    if (strlen(word) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (parse_lower(s[i]) != word[i])
            return 0;
    return 1;
}

/* Length of the word (letters, digits, '_') at s. */
static size_t word_length(const char *s)
{
    size_t n = 0;

    while (is_word_char(s[n]))
        n++;
    return n;
}

static void *plan_alloc(size_t n)
{
    return xcalloc(1, n);
}

/* Holds x within +/-PLAN_VALUE_MAX; NaN becomes 0. */
static double value_clamp(double x)
{
    if (x != x)
        return 0;
    if (x > PLAN_VALUE_MAX)
        return PLAN_VALUE_MAX;
    if (x < -PLAN_VALUE_MAX)
        return -PLAN_VALUE_MAX;
    return x;
}

/* --------------------------------------------------------------- lexer */

/* Reads the number at c->pos into c->tok; returns 0 or -1. */
static int lex_number(struct cond *c)
{
    const char *s = c->s;
    size_t i = c->pos, start = i;
    double whole = 0, frac = 0, scale = 1;
    char q[QUOTE_MAX + 4];

    while (is_digit(s[i])) {
        if (whole <= NUMBER_MAX)
            whole = whole * 10 + (s[i] - '0');
        i++;
    }
    if (s[i] == '.') {
        if (!is_digit(s[i + 1]))
            return parse_fail(c->err, c->line, parse_column(i),
                              "expected a digit after \".\"; write decimals as e.g. 2.5");
        i++;
        for (int k = 0; is_digit(s[i]); i++, k++)
            if (k < FRACTION_MAX) {
                frac = frac * 10 + (s[i] - '0');
                scale *= 10;
            }
    }
    if (is_word_char(s[i])) {
        parse_quote(s + start, parse_token_length(s + start), QUOTE_MAX, QUOTE_MAX - 3, q);
        return parse_fail(c->err, c->line, parse_column(start),
                          "\"%s\" is not a number; put a space or an operator after a number", q);
    }
    if (whole > NUMBER_MAX) {
        parse_quote(s + start, i - start, QUOTE_MAX, QUOTE_MAX - 3, q);
        return parse_fail(c->err, c->line, parse_column(start),
                          "number %s is too big; the most is %d", q, NUMBER_MAX);
    }
    c->tok.type = TOK_NUMBER;
    c->tok.num = whole + frac / scale;
    c->tok.len = i - start;
    return 0;
}

/* Moves to the next token; returns 0, or -1 after filling the error. */
static int lex_next(struct cond *c)
{
    const char *s = c->s;
    size_t i = c->pos;

    while (parse_is_space(s[i]))
        i++;
    c->pos = i;
    c->tok.at = i;
    c->tok.len = 1;
    switch (s[i]) {
    case '\0':
        c->tok.type = TOK_END;
        c->tok.at = c->trimmed;
        c->tok.len = 0;
        return 0;
    case '+':
        c->tok.type = TOK_PLUS;
        break;
    case '-':
        c->tok.type = TOK_MINUS;
        break;
    case '*':
        c->tok.type = TOK_STAR;
        break;
    case '/':
        c->tok.type = TOK_SLASH;
        break;
    case '(':
        c->tok.type = TOK_OPEN;
        break;
    case ')':
        c->tok.type = TOK_CLOSE;
        break;
    case '=':
        c->tok.type = TOK_EQ;
        break;
    case '<':
        c->tok.type = s[i + 1] == '=' ? TOK_LE : TOK_LT;
        break;
    case '>':
        c->tok.type = s[i + 1] == '=' ? TOK_GE : TOK_GT;
        break;
    case '!':
        if (s[i + 1] == '=') {
            c->tok.type = TOK_NE;
            break;
        }
        /* fall through */
    default:
        if (is_digit(s[i])) {
            if (lex_number(c) != 0)
                return -1;
        } else if (is_word_start(s[i])) {
            c->tok.type = TOK_WORD;
            c->tok.len = word_length(s + i);
        } else {
            size_t n = 1;
            char q[QUOTE_MAX + 4];

            while (((unsigned char)s[i + n] & 0xC0) == 0x80)
                n++;
            parse_quote(s + i, n, QUOTE_MAX, QUOTE_MAX - 3, q);
            return parse_fail(c->err, c->line, parse_column(i),
                              "unexpected \"%s\" in the condition", q);
        }
        break;
    }
    if (c->tok.type == TOK_LE || c->tok.type == TOK_GE || c->tok.type == TOK_NE)
        c->tok.len = 2;
    c->pos = i + c->tok.len;
    return 0;
}

/* 1 if the current token is the keyword `word`. */
static int tok_is(const struct cond *c, const char *word)
{
    return c->tok.type == TOK_WORD && word_is(c->s + c->tok.at, c->tok.len, word);
}

/* --------------------------------------------------------------- parser */

/* Appends an operation and keeps count of the values on the stack. */
static void emit(struct cond *c, enum op_code code, int word, double num)
{
    assert(c->n < c->cap); /* every operation stands on at least one byte */
    c->code[c->n].code = code;
    c->code[c->n].word = word;
    c->code[c->n].num = num;
    c->n++;
    if (code == OP_NUMBER || code == OP_VAR)
        c->sp++;
    else if (code != OP_NEG && code != OP_NOT)
        c->sp--;
    if (c->sp > c->sp_max)
        c->sp_max = c->sp;
}

/* The reason for a missing operand, at the current token. */
static int expected_operand(struct cond *c)
{
    char q[QUOTE_MAX + 4];

    if (c->tok.type == TOK_END)
        return parse_fail(c->err, c->line, parse_column(c->tok.at),
                          "expected a number, a variable or \"(\" at the end of the line");
    parse_quote(c->s + c->tok.at, c->tok.len, QUOTE_MAX, QUOTE_MAX - 3, q);
    return parse_fail(c->err, c->line, parse_column(c->tok.at),
                      "expected a number, a variable or \"(\" at \"%s\"", q);
}

static int parse_or(struct cond *c);

static int parse_primary(struct cond *c)
{
    static const char *const keywords[] = {"if", "then", "and", "or", "not", "is"};
    char q[WORD_QUOTE_MAX + 4];

    switch (c->tok.type) {
    case TOK_NUMBER:
        emit(c, OP_NUMBER, 0, c->tok.num);
        return lex_next(c);
    case TOK_WORD:
        for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
            if (tok_is(c, keywords[k]))
                return expected_operand(c);
        for (int w = 0; w < PLAN_WORDS; w++)
            if (word_allowed(c->g, w) && tok_is(c, plan_words[w].name)) {
                if (plan_words[w].constant >= 0)
                    emit(c, OP_NUMBER, 0, plan_words[w].constant);
                else
                    emit(c, OP_VAR, w, 0);
                return lex_next(c);
            }
        parse_quote(c->s + c->tok.at, c->tok.len, WORD_QUOTE_MAX, WORD_QUOTE_MAX - 3, q);
        return parse_fail(c->err, c->line, parse_column(c->tok.at),
                          "unknown word \"%s\"; variables are %s", q,
                          c->g && c->g->plan_variables ? c->g->plan_variables : VARIABLE_LIST);
    case TOK_OPEN: {
        size_t open = c->tok.at;

        if (c->depth >= PLAN_DEPTH_MAX)
            return parse_fail(c->err, c->line, parse_column(open),
                              "parentheses nested too deep; the most is %d", PLAN_DEPTH_MAX);
        c->depth++;
        if (lex_next(c) != 0 || parse_or(c) != 0)
            return -1;
        if (c->tok.type != TOK_CLOSE)
            return parse_fail(c->err, c->line, parse_column(open),
                              "unbalanced parenthesis: this \"(\" is never closed");
        c->depth--;
        return lex_next(c);
    }
    default:
        return expected_operand(c);
    }
}

/* unary := '-'* primary */
static int parse_unary(struct cond *c)
{
    int minus = 0;

    while (c->tok.type == TOK_MINUS) {
        minus ^= 1;
        if (lex_next(c) != 0)
            return -1;
    }
    if (parse_primary(c) != 0)
        return -1;
    if (minus)
        emit(c, OP_NEG, 0, 0);
    return 0;
}

/* mul := unary (('*' | '/') unary)* */
static int parse_mul(struct cond *c)
{
    if (parse_unary(c) != 0)
        return -1;
    while (c->tok.type == TOK_STAR || c->tok.type == TOK_SLASH) {
        enum op_code op = c->tok.type == TOK_STAR ? OP_MUL : OP_DIV;

        if (lex_next(c) != 0 || parse_unary(c) != 0)
            return -1;
        emit(c, op, 0, 0);
    }
    return 0;
}

/* add := mul (('+' | '-') mul)* */
static int parse_add(struct cond *c)
{
    if (parse_mul(c) != 0)
        return -1;
    while (c->tok.type == TOK_PLUS || c->tok.type == TOK_MINUS) {
        enum op_code op = c->tok.type == TOK_PLUS ? OP_ADD : OP_SUB;

        if (lex_next(c) != 0 || parse_mul(c) != 0)
            return -1;
        emit(c, op, 0, 0);
    }
    return 0;
}

/* The comparison at the current token, or -1 if it is not one. */
static int comparison(const struct cond *c)
{
    switch (c->tok.type) {
    case TOK_EQ:
        return OP_EQ;
    case TOK_NE:
        return OP_NE;
    case TOK_LT:
        return OP_LT;
    case TOK_GT:
        return OP_GT;
    case TOK_LE:
        return OP_LE;
    case TOK_GE:
        return OP_GE;
    default:
        return tok_is(c, "is") ? OP_EQ : -1;
    }
}

/* cmp := add [cmpop add], where "is not" means "!=" */
static int parse_cmp(struct cond *c)
{
    int op;

    if (parse_add(c) != 0)
        return -1;
    if ((op = comparison(c)) < 0)
        return 0;
    int is = tok_is(c, "is");
    if (lex_next(c) != 0)
        return -1;
    if (is && tok_is(c, "not")) {
        op = OP_NE;
        if (lex_next(c) != 0)
            return -1;
    }
    if (parse_add(c) != 0)
        return -1;
    emit(c, (enum op_code)op, 0, 0);
    if (comparison(c) >= 0)
        return parse_fail(c->err, c->line, parse_column(c->tok.at),
                          "comparisons do not chain; write e.g. \"round > 3 and round < 8\"");
    return 0;
}

/* not := 'not'* cmp */
static int parse_not(struct cond *c)
{
    int nots = 0;

    while (tok_is(c, "not")) {
        nots ^= 1;
        if (lex_next(c) != 0)
            return -1;
    }
    if (parse_cmp(c) != 0)
        return -1;
    if (nots)
        emit(c, OP_NOT, 0, 0);
    return 0;
}

/* and := not ('and' not)* */
static int parse_and(struct cond *c)
{
    if (parse_not(c) != 0)
        return -1;
    while (tok_is(c, "and")) {
        if (lex_next(c) != 0 || parse_not(c) != 0)
            return -1;
        emit(c, OP_AND, 0, 0);
    }
    return 0;
}

/* or := and ('or' and)* */
static int parse_or(struct cond *c)
{
    if (parse_and(c) != 0)
        return -1;
    while (tok_is(c, "or")) {
        if (lex_next(c) != 0 || parse_and(c) != 0)
            return -1;
        emit(c, OP_OR, 0, 0);
    }
    return 0;
}

/* ------------------------------------------------------------ compiling */

/* The state of compiling a whole plan. */
struct compiler {
    struct plan *p;
    int ops, cap; /* operations in p->code, room */
    int tag;      /* the round tag in force */
    struct parse_error *err;
};

/* Parses the order at s + at (line `line`) into *o; an error's column is
 * made a column of the line. */
static int line_order(struct compiler *k, int line, const char *s, size_t at, struct order *o)
{
    struct parse_error oerr;

    if (order_parse(k->p->rules, s + at, o, &oerr) == 0)
        return 0;
    if (k->err) {
        *k->err = oerr;
        k->err->line = line;
        k->err->column = parse_column(at + (size_t)(oerr.column > 0 ? oerr.column - 1 : 0));
    }
    return -1;
}

/* Rejects a towel at byte `at` of line `line`, the plan's grammar having
 * no towel: the reason names the rulesets whose plans may throw it in
 * ("boxing", "a, b and c"). Returns -1. */
static int towel_refused(struct compiler *k, int line, size_t at)
{
    char names[PARSE_REASON_MAX] = "";
    int have = 0, seen = 0;

    for (int r = 0; r < RULES_COUNT; r++)
        have += grammar_get((enum rules)r)->order_towel != NULL;
    for (int r = 0; r < RULES_COUNT; r++) {
        size_t used = strlen(names);
        const char *sep = ", ";

        if (!grammar_get((enum rules)r)->order_towel)
            continue;
        if (++seen == 1)
            sep = "";
        else if (seen == have)
            sep = " and ";
        snprintf(names + used, sizeof(names) - used, "%s%s", sep, ruleset_get((enum rules)r)->name);
    }
    return parse_fail(k->err, line, parse_column(at), "%s%s%sa %s plan cannot throw in the towel",
                      have ? "\"towel\" is for " : "", names, have ? "; " : "",
                      ruleset_get(k->p->rules)->name);
}

/* Compiles "if <condition> then <order line or towel>", s + at being just
 * after "if". */
static int line_conditional(struct compiler *k, int line, const char *s, size_t at,
                            struct plan_entry *e)
{
    struct cond c;

    memset(&c, 0, sizeof(c));
    c.s = s;
    c.trimmed = strlen(s);
    while (c.trimmed > 0 && parse_is_space(s[c.trimmed - 1]))
        c.trimmed--;
    c.pos = at;
    c.code = k->p->code + k->ops;
    c.cap = k->cap - k->ops;
    c.line = line;
    c.err = k->err;
    c.g = k->p->grammar;
    if (lex_next(&c) != 0 || parse_or(&c) != 0)
        return -1;
    if (c.tok.type == TOK_CLOSE)
        return parse_fail(k->err, line, parse_column(c.tok.at),
                          "unbalanced parenthesis: this \")\" has no \"(\"");
    if (!tok_is(&c, "then"))
        return parse_fail(k->err, line, parse_column(c.tok.at),
                          "missing \"then\" after the condition");
    if (c.sp != 1 || c.sp_max > PLAN_STACK_MAX)
        return parse_fail(k->err, line, parse_column(at), "condition too complex; split it up");
    e->cond_at = k->ops;
    e->cond_len = c.n;
    k->ops += c.n;

    size_t then = c.tok.at + c.tok.len, rest = then;
    while (parse_is_space(s[rest]))
        rest++;
    if (s[rest] == '\0')
        return parse_fail(
            k->err, line, parse_column(then), "nothing after \"then\"; write an order like %s%s",
            k->p->grammar->plan_example, k->p->grammar->order_towel ? " or \"towel\"" : "");
    size_t n = word_length(s + rest);
    if (word_is(s + rest, n, "towel")) {
        size_t after = rest + n;

        if (!k->p->grammar->order_towel)
            return towel_refused(k, line, rest);
        while (parse_is_space(s[after]))
            after++;
        if (s[after] != '\0') {
            char q[QUOTE_MAX + 4];
            parse_quote(s + after, parse_token_length(s + after), QUOTE_MAX, QUOTE_MAX - 3, q);
            return parse_fail(k->err, line, parse_column(after),
                              "unexpected \"%s\" after \"towel\"; the line ends with towel", q);
        }
        e->kind = LINE_TOWEL;
        return 0;
    }
    if (line_order(k, line, s, rest, &e->order) != 0)
        return -1;
    e->kind = LINE_ORDER;
    return 0;
}

/* Compiles line `line` (1-based), whose text `s` has been cut at its
 * comment, into *e; updates the tag in force. */
static int line_compile(struct compiler *k, int line, const char *s, struct plan_entry *e)
{
    size_t i = 0;

    e->kind = LINE_NONE;
    while (parse_is_space(s[i]))
        i++;
    if (s[i] == '\0')
        return 0;
    if (is_digit(s[i])) {
        size_t j = i, after;
        int tag = 0;

        while (is_digit(s[j])) {
            if (tag <= TAG_MAX)
                tag = tag * 10 + (s[j] - '0');
            j++;
        }
        after = j;
        while (parse_is_space(s[after]))
            after++;
        if (s[after] == ')') {
            if (tag == 0)
                return parse_fail(k->err, line, parse_column(i), "round tag 0: rounds start at 1");
            if (tag > TAG_MAX) {
                char q[QUOTE_MAX + 4];
                parse_quote(s + i, j - i, QUOTE_MAX, QUOTE_MAX - 3, q);
                return parse_fail(k->err, line, parse_column(i), "round tag %s is over %d", q,
                                  TAG_MAX);
            }
            k->tag = tag;
            i = after + 1;
            while (parse_is_space(s[i]))
                i++;
            if (s[i] == '\0')
                return 0;
        }
    }
    e->from = k->tag;
    size_t n = word_length(s + i);
    if (word_is(s + i, n, "if"))
        return line_conditional(k, line, s, i + n, e);
    if (word_is(s + i, n, "towel")) {
        if (!k->p->grammar->order_towel)
            return towel_refused(k, line, i);
        return parse_fail(k->err, line, parse_column(i),
                          "\"towel\" needs a condition: write \"if <condition> then towel\"");
    }
    if (line_order(k, line, s, i, &e->order) != 0)
        return -1;
    e->kind = LINE_ORDER;
    return 0;
}

/* The number of lines of the len bytes at s. A last empty piece after a
 * final separator is not a line. With `entry` (room for that many), also
 * splits `out`, a copy of s, into its lines in place, entry[i].line
 * pointing at line i. */
static int plan_split(const char *s, size_t len, char *out, struct plan_entry *entry)
{
    int n = 0;
    size_t start = 0;

    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '\n' && s[i] != ';')
            continue;
        if (i == len && start == len && n > 0)
            break;
        if (entry) {
            entry[n].line = out + start;
            if (i < len && s[i] == '\n' && i > start && s[i - 1] == '\r')
                out[i - 1] = '\0';
            out[i] = '\0';
        }
        n++;
        start = i + 1;
    }
    return n;
}

/* A plan of `lines` lines for the len bytes of `text`, split, its
 * conditions' room `cap` operations (shrunk once they are compiled). */
static struct plan *plan_new(enum rules rules, const char *text, size_t len, int lines, int cap)
{
    size_t entries = sizeof(struct plan_entry) * (size_t)lines;
    struct plan *p = plan_alloc(sizeof(*p) + entries + len + 1);

    p->rules = rules;
    p->grammar = grammar_get(rules);
    p->lines = lines;
    p->text = (char *)p->entry + entries;
    memcpy(p->text, text, len + 1);
    plan_split(text, len, p->text, p->entry);
    p->code = plan_alloc(sizeof(*p->code) * (size_t)cap);
    return p;
}

struct plan *plan_compile(enum rules rules, const char *text, struct parse_error *err)
{
    size_t len;
    int lines, orders = 0;
    struct compiler k;
    char buf[PLAN_BYTES_MAX + 1];

    assert(text);
    if (!grammar_get(rules)) {
        parse_fail(err, 0, 0, "this ruleset has no plans");
        return NULL;
    }
    len = strlen(text);
    if (len > PLAN_BYTES_MAX) {
        parse_fail(err, 0, 0, "plan is %zu bytes, the most is %d", len, PLAN_BYTES_MAX);
        return NULL;
    }

    lines = plan_split(text, len, NULL, NULL);
    if (lines > PLAN_LINES_MAX) {
        parse_fail(err, 0, 0, "plan has %d lines, the most is %d", lines, PLAN_LINES_MAX);
        return NULL;
    }
    memset(&k, 0, sizeof(k));
    k.cap = (int)len + 1;
    k.tag = 1;
    k.err = err;
    struct plan *p = k.p = plan_new(rules, text, len, lines, k.cap);
    for (int i = 0; i < lines; i++) {
        char *hash;

        strcpy(buf, p->entry[i].line);
        if ((hash = strchr(buf, '#')) != NULL)
            *hash = '\0';
        if (line_compile(&k, i + 1, buf, &p->entry[i]) != 0) {
            plan_free(p);
            return NULL;
        }
        if (p->entry[i].kind != LINE_NONE)
            orders++;
    }
    if (orders == 0) {
        parse_fail(err, 0, 0, "the plan has no orders; write at least one line like %s",
                   p->grammar->plan_example);
        plan_free(p);
        return NULL;
    }
    p->code = xrealloc(p->code, sizeof(*p->code) * (size_t)(k.ops ? k.ops : 1));
    return p;
}

void plan_free(struct plan *p)
{
    if (!p)
        return;
    free(p->code);
    free(p);
}

/* ------------------------------------------------------------ evaluating */

static double var_value(enum plan_var var, const struct plan_vars *v)
{
    switch (var) {
    case VAR_ROUND:
        return v->round;
    case VAR_ROUNDS_WON:
        return v->rounds_won;
    case VAR_ROUNDS_LOST:
        return v->rounds_lost;
    case VAR_SCORE:
        return value_clamp(v->score);
    case VAR_ENDURANCE:
        return value_clamp(v->endurance);
    case VAR_ENDURANCE_PERCENT:
        return v->endurance_percent;
    case VAR_OPP:
        return v->opp;
    case VAR_MY_CUTS:
        return v->my_cuts;
    case VAR_HIS_CUTS:
        return v->his_cuts;
    case VAR_MY_KNOCKDOWNS:
        return v->my_knockdowns;
    case VAR_HIS_KNOCKDOWNS:
        return v->his_knockdowns;
    case VAR_WARNINGS:
        return v->warnings;
    case VAR_HEALTH:
        return value_clamp(v->health);
    case VAR_HIS_HEALTH:
        return value_clamp(v->his_health);
    case VAR_ENERGY:
        return value_clamp(v->energy);
    case VAR_BLEEDING:
        return value_clamp(v->bleeding);
    case VAR_STUNNED:
        return v->stunned;
    }
    return 0;
}

/* The value of the condition of entry e under *v. */
static double cond_value(const struct plan *p, const struct plan_entry *e,
                         const struct plan_vars *v)
{
    double st[PLAN_STACK_MAX];
    int sp = 0;

    for (int i = e->cond_at; i < e->cond_at + e->cond_len; i++) {
        const struct plan_op *op = &p->code[i];
        double a, b;

        switch (op->code) {
        case OP_NUMBER:
            st[sp++] = op->num;
            continue;
        case OP_VAR:
            st[sp++] = var_value(plan_words[op->word].var, v);
            continue;
        case OP_NEG:
            st[sp - 1] = -st[sp - 1];
            continue;
        case OP_NOT:
            st[sp - 1] = st[sp - 1] == 0;
            continue;
        default:
            break;
        }
        b = st[--sp];
        a = st[sp - 1];
        switch (op->code) {
        case OP_ADD:
            a = value_clamp(a + b);
            break;
        case OP_SUB:
            a = value_clamp(a - b);
            break;
        case OP_MUL:
            a = value_clamp(a * b);
            break;
        case OP_DIV:
            a = b == 0 ? 0 : value_clamp(a / b);
            break;
        case OP_EQ:
            a = a == b;
            break;
        case OP_NE:
            a = a != b;
            break;
        case OP_LT:
            a = a < b;
            break;
        case OP_GT:
            a = a > b;
            break;
        case OP_LE:
            a = a <= b;
            break;
        case OP_GE:
            a = a >= b;
            break;
        case OP_AND:
            a = a != 0 && b != 0;
            break;
        case OP_OR:
            a = a != 0 || b != 0;
            break;
        default:
            break;
        }
        st[sp - 1] = a;
    }
    return sp == 1 ? st[0] : 0;
}

static int entry_holds(const struct plan *p, const struct plan_entry *e, const struct plan_vars *v)
{
    return e->cond_len == 0 || cond_value(p, e, v) != 0;
}

/* The order entry e gives (LINE_ORDER or LINE_TOWEL). */
static void entry_order(const struct plan *p, const struct plan_entry *e, struct order *o)
{
    if (e->kind == LINE_ORDER) {
        *o = e->order;
        return;
    }
    assert(p->grammar->order_towel); /* LINE_TOWEL only where it has one */
    memset(o, 0, sizeof(*o));
    ruleset_get(p->rules)->order_default(o);
    p->grammar->order_towel(o);
}

int plan_eval(const struct plan *p, const struct plan_vars *v, struct order *o)
{
    assert(p && v && o);
    for (int i = p->lines - 1; i >= 0; i--) {
        const struct plan_entry *e = &p->entry[i];

        if (e->kind == LINE_NONE || e->from > v->round || !entry_holds(p, e, v))
            continue;
        entry_order(p, e, o);
        return i + 1;
    }
    memset(o, 0, sizeof(*o));
    ruleset_get(p->rules)->order_default(o);
    return 0;
}

const char *plan_line(const struct plan *p, int line)
{
    assert(p);
    if (line < 1 || line > p->lines)
        return "";
    return p->entry[line - 1].line;
}

/* ------------------------------------------------------------ describing */

/* The describing functions answer like snprintf: their text is a struct
 * str fixed over the caller's buf[len], or, when len is 0 (buf may be
 * NULL), only counted, in `spare`. */
static void out_start(struct str *w, char *buf, size_t len, char spare[1])
{
    if (len > 0)
        str_init_fixed(w, buf, len);
    else
        str_init_fixed(w, spare, 1);
}

/* The length the whole text needs, as an int. */
static int out_len(const struct str *w)
{
    return w->need < (size_t)INT_MAX ? (int)w->need : INT_MAX;
}

/* The order entry e (or the default when e is NULL) gives, as text. */
static void order_text(const struct plan *p, const struct plan_entry *e, char *buf, size_t len)
{
    struct order o;

    if (e && e->kind == LINE_TOWEL) {
        snprintf(buf, len, "towel");
        return;
    }
    if (e)
        o = e->order;
    else {
        memset(&o, 0, sizeof(o));
        ruleset_get(p->rules)->order_default(&o);
    }
    order_format(&o, buf, len);
}

/* Writes a value the way a player writes numbers: 45, 87.5, -0.333333. */
static void value_write(struct str *w, double x)
{
    str_add(w, "%g", x == 0 ? 0 : x);
}

/* Line `i` (0-based) of `p` as written, trimmed and quoted for a
 * message into text[EXPLAIN_QUOTE + 4]. */
static void line_quote(const struct plan *p, int i, char text[EXPLAIN_QUOTE + 4])
{
    const char *s = p->entry[i].line;
    size_t n = strlen(s);

    while (parse_is_space(*s)) {
        s++;
        n--;
    }
    while (n > 0 && parse_is_space(s[n - 1]))
        n--;
    parse_quote(s, n, EXPLAIN_QUOTE, EXPLAIN_QUOTE - 3, text);
}

/* Appends "; opp = 2, round = 3, so the condition holds": the value of
 * each variable entry `e`'s condition reads, and whether it holds. */
static void condition_write(struct str *w, const struct plan *p, const struct plan_entry *e,
                            const struct plan_vars *v)
{
    unsigned long shown = 0;
    const char *sep = "; ";

    for (int i = e->cond_at; i < e->cond_at + e->cond_len; i++) {
        const struct plan_op *op = &p->code[i];

        if (op->code != OP_VAR || (shown & (1UL << op->word)))
            continue;
        shown |= 1UL << op->word;
        str_add(w, "%s%s = ", sep, plan_words[op->word].name);
        value_write(w, var_value(plan_words[op->word].var, v));
        sep = ", ";
    }
    str_cat(w, shown ? ", so " : "; ");
    str_cat(w, "the condition ");
    str_cat(w, entry_holds(p, e, v) ? "holds" : "does not hold");
}

int plan_explain(const struct plan *p, int line, const struct plan_vars *v, char *buf, size_t len)
{
    struct str w;
    char text[EXPLAIN_QUOTE + 4], spare[1];

    assert(p && v && (buf || len == 0));
    out_start(&w, buf, len, spare);
    if (line == 0) {
        char order[64];
        order_text(p, NULL, order, sizeof(order));
        str_add(&w, "no line applies: default %s", order);
        return out_len(&w);
    }
    if (line < 0 || line > p->lines) {
        str_add(&w, "there is no line %d", line);
        return out_len(&w);
    }
    const struct plan_entry *e = &p->entry[line - 1];
    line_quote(p, line - 1, text);
    if (e->kind == LINE_NONE) {
        str_add(&w, "line %d \"%s\" has no order", line, text);
        return out_len(&w);
    }
    str_add(&w, "line %d \"%s\": from round %d", line, text, e->from);
    if (e->cond_len > 0)
        condition_write(&w, p, e, v);
    return out_len(&w);
}

/* Appends the table of what the plan fights in rounds 1..rounds of a
 * fresh bout ("rounds 1-3: line 1 (5/5/10); round 4: default (...)"),
 * the line each used in used[1..rounds]. With `open` (a bout that fights
 * itself, a duel: it has no fixed length, it goes on until one falls or
 * yields, rounds at most) the stretch that runs to the end is said "from
 * round N on", or "every round" when it is the only one. */
static void summary_table(struct str *w, const struct plan *p, const int used[], int rounds,
                          int open)
{
    char order[64];

    for (int r = 1; r <= rounds;) {
        int last = r;

        while (last < rounds && used[last + 1] == used[r])
            last++;
        if (r > 1)
            str_cat(w, "; ");
        if (open && r == 1 && last == rounds)
            str_cat(w, "every round until one falls or yields: ");
        else if (open && last == rounds)
            str_add(w, "from round %d on: ", r);
        else if (last > r)
            str_add(w, "rounds %d-%d: ", r, last);
        else
            str_add(w, "round %d: ", r);
        order_text(p, used[r] ? &p->entry[used[r] - 1] : NULL, order, sizeof(order));
        if (used[r])
            str_add(w, "line %d (%s)", used[r], order);
        else
            str_add(w, "default (%s)", order);
        r = last + 1;
    }
}

/* Appends the lines the table never shows: a condition keeps them for
 * when it holds (fatigue, injuries, the score...). */
static void summary_unshown(struct str *w, const struct plan *p, const int used[], int rounds)
{
    for (int i = 0; i < p->lines; i++) {
        const struct plan_entry *e = &p->entry[i];
        char text[EXPLAIN_QUOTE + 4];
        int shown = 0;

        if (e->kind == LINE_NONE)
            continue;
        for (int r = 1; r <= rounds; r++)
            shown |= used[r] == i + 1;
        if (shown)
            continue;
        line_quote(p, i, text);
        if (e->from > rounds)
            str_add(w, "; from round %d (longer bouts): line %d (%s)", e->from, i + 1, text);
        else if (e->cond_len > 0)
            str_add(w, "; line %d when its condition holds: %s", i + 1, text);
        else
            str_add(w, "; line %d never fights (a later line always applies): %s", i + 1, text);
    }
}

int plan_summary(const struct plan *p, char *buf, size_t len)
{
    struct str w;
    int used[SUMMARY_ROUNDS + 1];
    char spare[1];

    assert(p && (buf || len == 0));
    const struct ruleset *rs = ruleset_get(p->rules);
    int rounds = rs->rounds_default;
    if (rounds > SUMMARY_ROUNDS)
        rounds = SUMMARY_ROUNDS;
    for (int r = 1; r <= rounds; r++) {
        struct plan_vars v;
        struct order o;

        memset(&v, 0, sizeof(v));
        v.round = r;
        v.endurance = 100;
        v.endurance_percent = 100;
        v.opp = 2;
        v.health = v.his_health = DUEL_HEALTH;
        v.energy = DUEL_ENERGY;
        used[r] = plan_eval(p, &v, &o);
    }
    out_start(&w, buf, len, spare);
    summary_table(&w, p, used, rounds, rs->auto_rounds);
    summary_unshown(&w, p, used, rounds);
    return out_len(&w);
}
