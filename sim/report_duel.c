/*
 * report_duel.c - the duel parts of the simulator's reports.
 *
 * The engine keeps only the last round in full (struct duel_round), so each
 * round is copied into the log as the bout goes and the writers read it
 * back from there. The text reads like a fight report: the duellists and
 * their equipment, then per round who had the initiative, every hit attempt
 * with the body part, the armour that took it and the damage, stuns,
 * breaks and bleeding, the state of both after the round, and the result.
 * The JSON carries every figure of every attack (rules.md section 4's
 * terms), reals as "%.6f", so that tests/duel_check.py can recompute them.
 */
#include <string.h>

#include "parse.h"
#include "report_internal.h"

_Static_assert(DUEL_ROUNDS <= REPORT_ROUNDS_MAX, "the log must hold a duel");

static void log_round(struct report_round *rr, const struct bout *b)
{
    rr->duel = b->u.duel.last;
}

/* ----------------------------------------------------------------- text */

/* A weapon's name with spaces: "war hammer". */
static void weapon_text(int w, char *buf, size_t len)
{
    snprintf(buf, len, "%s", duel_weapon_info(w)->name);
    for (char *p = buf; *p; p++)
        if (*p == '_')
            *p = ' ';
}

/* "plate head", "leather shield", "chainmail under". */
static void piece_text(int slot, int item, char *buf, size_t len)
{
    if (slot == DUEL_WEAPON)
        weapon_text(item, buf, len);
    else
        snprintf(buf, len, "%s %s", duel_armour_info(item)->name, duel_slot_name(slot));
}

static void part_text(int part, char *buf, size_t len)
{
    snprintf(buf, len, "%s", duel_part_name(part));
    for (char *p = buf; *p; p++)
        if (*p == '_')
            *p = ' ';
}

/* "Conan: STR 18 DEX 14 CON 14 INT 10; longsword, plate head, ..." */
static void text_sheet(FILE *out, const char *name, const struct duel_sheet *s)
{
    static const int order[] = {DUEL_WEAPON, DUEL_HEAD, DUEL_TORSO, DUEL_UNDER,
                                DUEL_LEGS,   DUEL_FEET, DUEL_SHIELD};
    char piece[48];
    int n = 0;

    fprintf(out, "%s: STR %d DEX %d CON %d INT %d;", name, s->str, s->dex, s->con, s->intel);
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        int k = order[i];
        if (!s->item[k])
            continue;
        piece_text(k, s->item[k], piece, sizeof(piece));
        fprintf(out, "%s %s %.1f%%", n++ ? "," : "", piece, s->cond[k] / 10000.0);
    }
    if (!s->item[DUEL_WEAPON])
        fprintf(out, "%s bare fists", n ? "," : "");
    double enc = duel_encumbrance(s->item, s->str);
    fprintf(out, "; encumbrance %.3f\n", enc);
}

/* One attempt of `a` (attacker name) on `d`. */
static void text_attack(FILE *out, const char *a, const char *d, const struct duel_attack *at)
{
    char part[32], piece[48];

    if (!at->hit) {
        fprintf(out, "    %s misses (%.1f%% to hit; energy -%.2f).\n", a, at->hit_chance,
                at->energy_cost);
        return;
    }
    part_text(at->part, part, sizeof(part));
    fprintf(out, "    %s hits %s's %s%s for %.1f: roll %d, base %.1f (blunt %.1f, cut %.1f)", a, d,
            part, at->critical ? " with a critical hit" : "", at->damage, at->roll, at->base,
            at->blunt, at->cut);
    for (int k = 0; k < at->npieces; k++) {
        piece_text(at->pieces[k].slot, at->pieces[k].item, piece, sizeof(piece));
        fprintf(out, "%s%s (%d)", k ? " and " : "; ", piece, at->pieces[k].defence);
    }
    if (at->npieces)
        fprintf(out, " leave blunt %.1f, cut %.1f", at->blunt_after, at->cut_after);
    fprintf(out, ".");
    if (at->npieces) {
        piece_text(at->pieces[0].slot, at->pieces[0].item, piece, sizeof(piece));
        fprintf(out, " The %s wears %.2f%% (%.1f%% left).", piece, at->pieces[0].wear,
                at->pieces[0].condition);
    }
    if (at->stun_turns)
        fprintf(out, " %s is stunned for %d turn%s!", d, at->stun_turns,
                at->stun_turns == 1 ? "" : "s");
    if (at->bleed_added > 0)
        fprintf(out, " %s bleeds %.2f more a round.", d, at->bleed_added);
    fprintf(out, "\n");
}

/* The events that say what the figures do not: breaks, no energy. */
static void text_notes(FILE *out, const struct report_bout *rb, const struct events *evs)
{
    char piece[48];

    for (int k = 0; k < evs->n; k++) {
        const struct event *e = &evs->ev[k];
        if (e->side < 0 || e->side >= SIDES)
            continue;
        if (e->type == EV_BREAK) {
            piece_text(e->a, e->b, piece, sizeof(piece));
            fprintf(out, "    %s's %s breaks!\n", rb->name[e->side], piece);
        } else if (e->type == EV_SPENT) {
            fprintf(out, "  %s has no energy left to attack.\n", rb->name[e->side]);
        }
    }
}

/* 1 if round `rr` was fought (someone had the initiative). */
static int round_fought(const struct report_round *rr)
{
    for (int k = 0; k < rr->evs.n; k++)
        if (rr->evs.ev[k].type == EV_INITIATIVE)
            return 1;
    return 0;
}

/* How round `rr` began: yields, bleeding, the initiative. */
static void text_round_start(FILE *out, const struct report_bout *rb, const struct report_round *rr)
{
    const struct duel_round *l = &rr->duel;

    for (int i = 0; i < SIDES; i++) {
        if (l->yielded[i])
            fprintf(out, "  %s yields.\n", rb->name[i]);
        if (l->bled[i] > 0)
            fprintf(out, "  %s bleeds %.1f.\n", rb->name[i], l->bled[i]);
    }
    if (round_fought(rr))
        fprintf(out, "  %s has the initiative.\n", rb->name[l->initiative]);
}

/* Each turn of round `l`: its hits and every attempt. */
static void text_turns(FILE *out, const struct report_bout *rb, const struct duel_round *l)
{
    for (int t = 0; t < l->nturns; t++) {
        const struct duel_turn *tu = &l->turns[t];
        int a = tu->attacker;

        fprintf(out, "  %s attacks: %d hit%s in the turn (table %.1f/%.1f)\n", rb->name[a],
                tu->hits, tu->hits == 1 ? "" : "s", tu->p, tu->n);
        for (int k = 0; k < tu->nattacks; k++)
            text_attack(out, rb->name[a], rb->name[!a], &tu->attacks[k]);
    }
}

/* In a round fought, a fighter who fought no turn, was not out of energy
 * and was still standing lost it to a stun. */
static void text_stunned(FILE *out, const struct report_bout *rb, const struct report_round *rr)
{
    const struct duel_round *l = &rr->duel;

    for (int k = 0; k < SIDES; k++) {
        int side = k == 0 ? l->initiative : !l->initiative, had = 0, spent = 0;
        for (int t = 0; t < l->nturns; t++)
            had |= l->turns[t].attacker == side;
        for (int e = 0; e < rr->evs.n; e++)
            spent |= rr->evs.ev[e].type == EV_SPENT && rr->evs.ev[e].side == side;
        if (!had && !spent && l->after[side].health > 0 && l->after[!side].health > 0)
            fprintf(out, "  %s is stunned and loses the turn.\n", rb->name[side]);
    }
}

/* Both fighters after round `l`. */
static void text_after(FILE *out, const struct report_bout *rb, const struct duel_round *l)
{
    for (int i = 0; i < SIDES; i++) {
        const struct duel_after *af = &l->after[i];
        char w[32];

        weapon_text(af->weapon, w, sizeof(w));
        fprintf(out, "  %s: health %.1f, energy %.1f, bleeding %.2f a round", rb->name[i],
                af->health, af->energy, af->bleed);
        if (af->stunned)
            fprintf(out, ", stunned for %d turn%s", af->stunned, af->stunned == 1 ? "" : "s");
        if (af->weapon)
            fprintf(out, ", %s %.2f%%", w, af->weapon_condition);
        else
            fprintf(out, ", bare fists");
        fprintf(out, "\n");
    }
}

/* The duellists, then round by round the initiative, the turns, breaks,
 * stuns, both fighters after it and, with --explain, the plan lines; then
 * the result line. */
static void text(FILE *out, const struct report_bout *rb, const struct bout *b,
                 const struct report_log *log)
{
    char line[RENDER_LINE_MAX];

    for (int i = 0; i < SIDES; i++)
        text_sheet(out, rb->name[i], &rb->sheet[i].u.duel);
    fprintf(out, "duel, at most %d rounds, seed %llu\n", b->rounds, (unsigned long long)rb->seed);
    for (int r = 0; r < log->n; r++) {
        const struct report_round *rr = &log->round[r];

        fprintf(out, "Round %d\n", r + 1);
        text_round_start(out, rb, rr);
        text_turns(out, rb, &rr->duel);
        text_notes(out, rb, &rr->evs);
        if (round_fought(rr))
            text_stunned(out, rb, rr);
        text_after(out, rb, &rr->duel);
        for (int i = 0; i < SIDES; i++)
            if (rr->why[i][0])
                fprintf(out, "  %s's plan: %s\n", rb->name[i], rr->why[i]);
    }
    report_result_line(rb, b, line, sizeof(line));
    fprintf(out, "%s\n", line);
}

/* ----------------------------------------------------------------- JSON */

static void json_sheet(FILE *out, const struct sheet *s)
{
    const struct duel_sheet *d = &s->u.duel;
    char kit[256];

    fprintf(out, "{\"str\":%d,\"dex\":%d,\"con\":%d,\"int\":%d,\"equipment\":{", d->str, d->dex,
            d->con, d->intel);
    for (int k = 0, n = 0; k < DUEL_SLOTS; k++) {
        if (!d->item[k])
            continue;
        fprintf(out, "%s\"%s\":{\"item\":\"%s\",\"condition\":%.4f}", n++ ? "," : "",
                duel_slot_name(k),
                k == DUEL_WEAPON ? duel_weapon_info(d->item[k])->name
                                 : duel_armour_info(d->item[k])->name,
                d->cond[k] / 10000.0);
    }
    duel_kit_format(d, kit, sizeof(kit));
    fputs("},\"kit\":", out);
    report_json_string(out, kit);
    putc('}', out);
}

static int json_rounds(const struct bout *b, const struct report_log *log)
{
    (void)b;
    return log->n;
}

/* Each side's plan line only: the round's figures are the round's. */
static void json_side(FILE *out, const struct bout *b, const struct report_log *log, int r,
                      int side)
{
    (void)b;
    fprintf(out, "\"yield\":%s", log->round[r].duel.yielded[side] ? "true" : "false");
}

static void json_attack(FILE *out, const struct duel_attack *at)
{
    fprintf(out, "{\"hit\":%s,\"hit_chance\":%.6f,\"part\":", at->hit ? "true" : "false",
            at->hit_chance);
    if (at->hit)
        fprintf(out, "\"%s\"", duel_part_name(at->part));
    else
        fputs("null", out);
    fputs(",\"pieces\":[", out);
    for (int k = 0; k < at->npieces; k++) {
        const struct duel_piece *p = &at->pieces[k];
        fprintf(out,
                "%s{\"item\":\"%s_%s\",\"slot\":\"%s\",\"defence\":%d,\"wear\":%.6f,"
                "\"condition\":%.6f}",
                k ? "," : "", duel_armour_info(p->item)->name, duel_slot_name(p->slot),
                duel_slot_name(p->slot), p->defence, p->wear, p->condition);
    }
    fprintf(out,
            "],\"roll\":%d,\"base\":%.6f,\"blunt\":%.6f,\"cut\":%.6f,\"blunt_after\":%.6f,"
            "\"cut_after\":%.6f,\"damage\":%.6f,\"critical\":%s,\"stun_turns\":%d,"
            "\"bleed_added\":%.6f,\"weapon_wear\":%.6f,\"energy_cost\":%.6f}",
            at->roll, at->base, at->blunt, at->cut, at->blunt_after, at->cut_after, at->damage,
            at->critical ? "true" : "false", at->stun_turns, at->bleed_added, at->weapon_wear,
            at->energy_cost);
}

/* "initiative", "turns" and "after" of round r. */
static void json_round(FILE *out, const struct bout *b, const struct report_log *log, int r)
{
    const struct duel_round *l = &log->round[r].duel;
    int fought = 0;

    (void)b;
    for (int k = 0; k < log->round[r].evs.n; k++)
        fought |= log->round[r].evs.ev[k].type == EV_INITIATIVE;
    if (fought)
        fprintf(out, ",\"initiative\":%d", l->initiative);
    else
        fputs(",\"initiative\":null", out);
    fputs(",\"turns\":[", out);
    for (int t = 0; t < l->nturns; t++) {
        const struct duel_turn *tu = &l->turns[t];

        fprintf(out, "%s{\"attacker\":%d,\"hits\":%d,\"p\":%.1f,\"n\":%.1f,\"attacks\":[",
                t ? "," : "", tu->attacker, tu->hits, tu->p, tu->n);
        for (int k = 0; k < tu->nattacks; k++) {
            if (k)
                putc(',', out);
            json_attack(out, &tu->attacks[k]);
        }
        fputs("]}", out);
    }
    fputs("],\"after\":[", out);
    for (int i = 0; i < SIDES; i++) {
        const struct duel_after *af = &l->after[i];
        fprintf(out,
                "%s{\"health\":%.6f,\"energy\":%.6f,\"bleed\":%.6f,\"stunned\":%d,"
                "\"weapon_condition\":%.6f}",
                i ? "," : "", af->health, af->energy, af->bleed, af->stunned, af->weapon_condition);
    }
    putc(']', out);
}

const struct report_rules duel_report = {
    .log_round = log_round,
    .text = text,
    .json_sheet = json_sheet,
    .json_cards = NULL,
    .json_rounds = json_rounds,
    .json_side = json_side,
    .json_round = json_round,
};
