/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.c - JSON value writers (see json.h).
 */
#include <math.h>
#include <stdlib.h>
#include "sinks/json.h"

void json_str(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *p; p++) {
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_num(FILE *f, double v)
{
    char buf[40];
    int prec;

    if (!isfinite(v)) {
        fputs("null", f);
        return;
    }
    for (prec = 15; prec < 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    if (prec == 17)
        snprintf(buf, sizeof buf, "%.17g", v);
    fputs(buf, f);
}
