/*
 * report_sugarray.c - the sugarray parts of the simulator's reports.
 *
 * A sugarray bout keeps every round's orders and endurance itself, so
 * nothing beyond the events is recorded into the log and the writers read
 * the rounds from the finished bout; the log only says, per round, where
 * each order came from. The text is the two classic lines of seed 004,
 * winner first, the very lines the bot's commentary writes.
 */
#include "report_internal.h"

_Static_assert(SUGARRAY_ROUNDS <= REPORT_ROUNDS_MAX, "the log must hold a sugarray bout");

/* ----------------------------------------------------------------- text */

/* One classic line (seed 004): name, sheet, rounds fought, PW/KO/TIE; the
 * bot's commentary writes the same line (render_sugarray_line). */
static void text_line(FILE *out, const struct render_corner c[SIDES], const struct bout *b,
                      int side, const char *tail)
{
    char line[RENDER_LINE_MAX];

    render_sugarray_line(c, b, side, tail, line, sizeof(line));
    fprintf(out, "%s\n", line);
}

/* The classic lines as they are; with --explain, the plan lines below. */
static void text(FILE *out, const struct report_bout *rb, const struct bout *b,
                 const struct report_log *log)
{
    const struct result *res = &b->result;
    struct render_corner c[SIDES];

    report_corners(rb, c);
    if (res->winner < 0) {
        text_line(out, c, b, 0, " TIE");
        text_line(out, c, b, 1, " TIE");
    } else {
        text_line(out, c, b, res->winner, res->method == METHOD_KO ? " KO" : " PW");
        text_line(out, c, b, !res->winner, "");
    }
    for (int r = 0; r < log->n; r++)
        for (int i = 0; i < SIDES; i++)
            if (log->round[r].why[i][0])
                fprintf(out, "round %d, %s's plan: %s\n", r + 1, rb->name[i], log->round[r].why[i]);
}

/* ----------------------------------------------------------------- JSON */

/* {"skill":12,"endurance":21} */
static void json_sheet(FILE *out, const struct sheet *s)
{
    fprintf(out, "{\"skill\":%d,\"endurance\":%d}", s->u.sugarray.skill, s->u.sugarray.endurance);
}

/* Every round fought, as the bout itself keeps them. */
static int json_rounds(const struct bout *b, const struct report_log *log)
{
    (void)log;
    return b->round < SUGARRAY_ROUNDS ? b->round : SUGARRAY_ROUNDS;
}

/* The side's order and its endurance after the round: "order":"6/0",
 * "endurance":15. */
static void json_side(FILE *out, const struct bout *b, const struct report_log *log, int r,
                      int side)
{
    const struct sugarray_bout *sb = &b->u.sugarray;

    (void)log;
    fprintf(out, "\"order\":\"%d/%d\",\"endurance\":%d", sb->orders[r][side].attack,
            sb->orders[r][side].defence, sb->end_after[r][side]);
}

const struct report_rules sugarray_report = {
    .log_round = NULL,
    .text = text,
    .json_sheet = json_sheet,
    .json_cards = NULL,
    .json_rounds = json_rounds,
    .json_side = json_side,
};
