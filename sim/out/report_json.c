/*
 * report_json.c - the report as one JSON document (--json), printed when
 * the run ends.
 */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/out/report_impl.h"
#include "sim/out/json.h"

/* ---- JSON ---- */

/* Separator before the i-th element of an array printed one per line. */
static void json_elem(FILE *f, size_t i)
{
    fputs(i ? ",\n    " : "\n    ", f);
}

static void json_array_end(FILE *f, size_t n)
{
    fputs(n ? "\n  ]" : "]", f);
}

void rep_print_json(struct report *r, double sim_s, double wall_s, uint64_t events, const char *status)
{
    FILE *f = r->out;
    struct rep_prof **prof;
    size_t i, n;

    fputs("{\n  \"intervals\":[", f);
    for (i = 0; i < r->nivs; i++) {
        const struct rep_interval *iv = &r->ivs[i];
        json_elem(f, i);
        fprintf(f, "{\"flow\":%d,\"start\":", iv->flow);
        json_num(f, iv->t_start);
        fputs(",\"end\":", f);
        json_num(f, iv->t_end);
        fprintf(f, ",\"bytes\":%" PRIu64 ",\"bits_per_second\":", iv->bytes);
        json_num(f, rep_rate_of(iv->bytes, iv->t_start, iv->t_end));
        fputc('}', f);
    }
    json_array_end(f, r->nivs);

    fputs(",\n  \"flows\":[", f);
    for (i = 0; i < r->nflows; i++) {
        struct flow_total ft = rep_flow_total(r, r->flows[i].id, sim_s);
        json_elem(f, i);
        fprintf(f, "{\"id\":%d,\"desc\":", r->flows[i].id);
        json_str(f, r->flows[i].desc);
        fputs(",\"start\":", f);
        json_num(f, ft.t_start);
        fputs(",\"end\":", f);
        json_num(f, ft.t_end);
        fprintf(f, ",\"bytes\":%" PRIu64 ",\"bits_per_second\":", ft.bytes);
        json_num(f, rep_rate_of(ft.bytes, ft.t_start, ft.t_end));
        fputc('}', f);
    }
    json_array_end(f, r->nflows);

    fputs(",\n  \"counters\":{", f);
    for (i = 0; i < r->ncounters; i++) {
        if (i)
            fputc(',', f);
        json_str(f, r->counters[i].name);
        fputc(':', f);
        json_num(f, r->counters[i].value);
    }
    fputs("},\n  \"drops\":{", f);
    for (i = 0, n = 0; i < r->ncounters; i++) {
        if (!r->counters[i].is_drop || r->counters[i].value == 0)
            continue;
        if (n++)
            fputc(',', f);
        json_str(f, r->counters[i].name);
        fputc(':', f);
        json_num(f, r->counters[i].value);
    }
    fputs("},\n  \"profile\":[", f);
    prof = rep_prof_sorted(r);
    for (i = 0; i < r->nprof; i++) {
        json_elem(f, i);
        fputs("{\"host\":", f);
        json_str(f, prof[i]->host);
        fputs(",\"symbol\":", f);
        json_str(f, prof[i]->symbol);
        fputs(",\"cpu_ns\":", f);
        json_num(f, prof[i]->cpu_ns);
        fprintf(f, ",\"calls\":%" PRIu64 "}", prof[i]->calls);
    }
    free(prof);
    json_array_end(f, r->nprof);

    fputs(",\n  \"lines\":[", f);
    for (i = 0; i < r->nlines; i++) {
        json_elem(f, i);
        json_str(f, r->lines[i]);
    }
    json_array_end(f, r->nlines);

    fputs(",\n  \"end\":{\"sim_s\":", f);
    json_num(f, sim_s);
    fputs(",\"wall_s\":", f);
    json_num(f, wall_s);
    fprintf(f, ",\"events\":%" PRIu64 ",\"status\":", events);
    json_str(f, status ? status : "unknown");
    fputs("}\n}\n", f);
}
