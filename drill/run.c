/* SPDX-License-Identifier: GPL-2.0-only */
/* run.c - placeholder until the interpreter lands */
#include <stdio.h>
#include "drill/drill.h"
#include "drill/run.h"

int drill_run(const struct drill_script *s, const struct drill_opts *o, char *msg, int len)
{
    (void)o;
    snprintf(msg, (size_t)len, "%s: unsupported: execution", s->path);
    return DRILL_UNSUPPORTED;
}
