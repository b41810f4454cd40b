/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keys_cmd.c - `netsim keys [SECTION | APP | FAMILY]`: every key with its
 * default, unit, range and doc, as the getters recorded them in the worlds
 * keys_world.c builds, so that the reference cannot drift from what the
 * validator accepts. Text for people; --md writes docs/reference/keys.md's
 * tables, --roff netsim-scenario(5)'s, --names one key a line for the bash
 * completion.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/commands.h"
#include "cli/keys.h"
#include "sim/sim.h"
#include "sim/variant.h"

enum fmt { FMT_TEXT, FMT_MD, FMT_ROFF, FMT_NAMES };

static const char usage_keys[] =
    "usage: netsim keys [options] [SECTION | APP | FAMILY]\n"
    "\n"
    "Prints every scenario key with its default, unit, valid range and what\n"
    "it does, from the checks the scenario reader applies.\n"
    "\n"
    "  SECTION   sim, link, host or flow (flow: the keys of every app)\n"
    "  APP       an application ([flow N] app = APP): its flow keys\n"
    "  FAMILY    a model family ([host] key such as tcp.drs): its variants\n"
    "            and the keys that depend on the variant\n"
    "  (none)    everything\n"
    "\n"
    "options:\n"
    "      --md      markdown tables (docs/reference/keys.md)\n"
    "      --roff    man-page source (netsim-scenario(5))\n"
    "      --names   key names only, one a line\n"
    "  -h, --help    this text\n";

static void put_md(FILE *out, const char *s)
{
    for (; *s; s++)
        fputs(*s == '|' ? "\\|" : (char[2]){ *s, 0 }, out);
}

/* roff text: backslashes escaped; a line never starts with a control
 * character (the caller starts each line). */
static void put_roff(FILE *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", out);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", out);
        else if (*s == '-')
            fputs("\\-", out);
        else
            fputc(*s, out);
    }
}

static const char *def_text(const struct key_row *r)
{
    return !r->def ? "(required)" : !r->def[0] ? "(empty)" : r->def;
}

static void row_print(FILE *out, const struct key_row *r, enum fmt f)
{
    switch (f) {
    case FMT_TEXT: {
        int n = fprintf(out, "  %s = %s", r->key, def_text(r));
        fprintf(out, "%*s%s%s%s\n      %s\n", n < 44 ? 44 - n : 2, "", r->unit, r->range[0] ? "; " : "", r->range,
                r->doc);
        break;
    }
    case FMT_MD:
        fprintf(out, "| `%s` | ", r->key);
        put_md(out, def_text(r));
        fprintf(out, " | %s | ", r->unit);
        put_md(out, r->range);
        fputs(" | ", out);
        put_md(out, r->doc);
        fputs(" |\n", out);
        break;
    case FMT_ROFF:
        fputs(".TP\n.B ", out);
        put_roff(out, r->key);
        fputs("\n", out);
        put_roff(out, r->doc);
        fputs("\n.br\nDefault: ", out);
        put_roff(out, def_text(r));
        fputs("; ", out);
        put_roff(out, r->unit);
        if (r->range[0]) {
            fputs("; ", out);
            put_roff(out, r->range);
        }
        fputs(".\n", out);
        break;
    case FMT_NAMES:
        if (!r->pattern)
            fprintf(out, "%s\n", r->key);
        break;
    }
}

static void head_print(FILE *out, const char *title, const char *what, enum fmt f)
{
    switch (f) {
    case FMT_TEXT:
        fprintf(out, "\n%s%s%s\n", title, what ? ": " : "", what ? what : "");
        break;
    case FMT_MD:
        fputs("\n## ", out);
        put_md(out, title);
        fprintf(out, "\n\n%s%s| key | default | unit | range | what it does |\n|---|---|---|---|---|\n",
                what ? what : "", what ? "\n\n" : "");
        break;
    case FMT_ROFF:
        fputs(".SS \"", out);
        put_roff(out, title);
        fputs("\"\n", out);
        if (what) {
            put_roff(out, what);
            fputs("\n", out);
        }
        break;
    case FMT_NAMES:
        break;
    }
}

/* The rows of g, less those of `less` (NULL: none). */
static void group_print(FILE *out, const struct key_group *g, const char *title, const struct key_group *less,
                        enum fmt f)
{
    head_print(out, title ? title : g->title, g->what, f);
    for (int i = 0; i < g->n; i++) {
        bool skip = false;
        for (int k = 0; less && k < less->n && !skip; k++)
            skip = !strcmp(less->rows[k].key, g->rows[i].key);
        if (!skip)
            row_print(out, &g->rows[i], f);
    }
}

static void app_print(FILE *out, const struct key_ref *r, int i, const struct key_group *less, enum fmt f)
{
    char title[160];
    snprintf(title, sizeof title, "[flow N] app = %s", r->apps[i].title);
    group_print(out, &r->apps[i], title, less, f);
}

/* A family: its doc, its variants, and the keys each variant changes. */
static void family_print(FILE *out, const struct key_ref *r, const struct variant_family *fam, enum fmt f)
{
    size_t n = strlen(fam->key);
    if (f == FMT_NAMES)
        return;
    if (f != FMT_MD)
        head_print(out, fam->key, fam->doc, f);
    else
        fprintf(out, "\n## `%s`\n\n%s\n\n| variant | what it models | keys it reads otherwise |\n|---|---|---|\n",
                fam->key, fam->doc);
    for (int i = 0; i < r->nvariants; i++) {
        const struct key_group *v = &r->variants[i];
        if (strncmp(v->title, fam->key, n) || strncmp(v->title + n, " = ", 3))
            continue;
        const char *name = v->title + n + 3;
        bool def = !strcmp(name, fam->def);
        if (f == FMT_TEXT) {
            fprintf(out, "  = %-14s %s%s\n", name, v->what, def ? " (default)" : "");
            for (int k = 0; k < v->n; k++)
                row_print(out, &v->rows[k], f);
        } else if (f == FMT_MD) {
            fprintf(out, "| `%s`%s | ", name, def ? " (default)" : "");
            put_md(out, v->what);
            fputs(" | ", out);
            for (int k = 0; k < v->n; k++) {
                fprintf(out, "%s`%s` = ", k ? ", " : "", v->rows[k].key);
                put_md(out, def_text(&v->rows[k]));
            }
            fputs(v->n ? " |\n" : "none |\n", out);
        } else {
            fputs(".TP\n.B ", out);
            put_roff(out, name);
            fputs(def ? "\n(default) " : "\n", out);
            put_roff(out, v->what);
            for (int k = 0; k < v->n; k++) {
                fputs(k ? ", " : "\n.br\nReads otherwise: ", out);
                put_roff(out, v->rows[k].key);
                fputs(" = ", out);
                put_roff(out, def_text(&v->rows[k]));
            }
            fputs("\n", out);
        }
    }
}

static void families_print(FILE *out, const struct key_ref *r, enum fmt f)
{
    for (int m = 0; model_at(m); m++)
        for (const struct variant_family *const *fam = model_at(m)->families; fam && *fam; fam++)
            family_print(out, r, *fam, f);
}

static const struct variant_family *family_find(const char *key)
{
    for (int m = 0; model_at(m); m++)
        for (const struct variant_family *const *fam = model_at(m)->families; fam && *fam; fam++)
            if (!strcmp((*fam)->key, key))
                return *fam;
    return NULL;
}

static void all_print(FILE *out, const struct key_ref *r, enum fmt f)
{
    group_print(out, &r->sim, NULL, NULL, f);
    group_print(out, &r->link, NULL, NULL, f);
    group_print(out, &r->host, NULL, NULL, f);
    group_print(out, &r->flow, "[flow N] (every app)", NULL, f);
    for (int i = 0; i < r->napps; i++)
        app_print(out, r, i, &r->flow, f);
    if (f == FMT_MD)
        fputs("\n# Model families\n\nEach is a `[host]` key whose value picks a variant (`netsim models`).\n", out);
    families_print(out, r, f);
}

/* Prints what `what` names; 0, or 2 when it names nothing. */
static int select_print(FILE *out, const struct key_ref *r, const char *what, enum fmt f)
{
    const struct variant_family *fam;
    if (!what) {
        all_print(out, r, f);
    } else if (!strcmp(what, "sim")) {
        group_print(out, &r->sim, NULL, NULL, f);
    } else if (!strcmp(what, "link")) {
        group_print(out, &r->link, NULL, NULL, f);
    } else if (!strcmp(what, "host")) {
        group_print(out, &r->host, NULL, NULL, f);
    } else if (!strcmp(what, "flow")) {
        group_print(out, &r->flow, "[flow N] (every app)", NULL, f);
        for (int i = 0; i < r->napps; i++)
            app_print(out, r, i, &r->flow, f);
    } else if ((fam = family_find(what))) {
        family_print(out, r, fam, f);
    } else {
        for (int i = 0; i < r->napps; i++)
            if (!strcmp(r->apps[i].title, what)) {
                app_print(out, r, i, NULL, f);
                return 0;
            }
        fprintf(stderr, "netsim keys: no section, app or family '%s'; sections: sim, link, host, flow; apps:", what);
        for (int i = 0; i < r->napps; i++)
            fprintf(stderr, " %s", r->apps[i].title);
        fputs("; families:", stderr);
        for (int m = 0; model_at(m); m++)
            for (const struct variant_family *const *fm = model_at(m)->families; fm && *fm; fm++)
                fprintf(stderr, " %s", (*fm)->key);
        fputs("\n", stderr);
        return 2;
    }
    return 0;
}

int cmd_keys(int argc, char **argv)
{
    static const struct option opts[] = {
        { "md", no_argument, 0, 'm' },    { "roff", no_argument, 0, 'r' }, { "names", no_argument, 0, 'n' },
        { "help", no_argument, 0, 'h' }, { 0, 0, 0, 0 },
    };
    enum fmt f = FMT_TEXT;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'm': f = FMT_MD; break;
        case 'r': f = FMT_ROFF; break;
        case 'n': f = FMT_NAMES; break;
        case 'h': fputs(usage_keys, stdout); return 0;
        default: fputs(usage_keys, stderr); return 2;
        }
    }
    if (argc - optind > 1) {
        fprintf(stderr, "netsim keys: expected at most one SECTION, APP or FAMILY\n\n%s", usage_keys);
        return 2;
    }
    struct key_ref r;
    int rc = key_ref_build(&r) ? 1 : select_print(stdout, &r, optind < argc ? argv[optind] : NULL, f);
    key_ref_free(&r);
    return rc;
}
