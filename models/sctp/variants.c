/*
 * variants.c - the registry of the sctp.rwnd and sctp.hb variants, by name.
 * A new variant is one file plus one line here.
 */
#include <string.h>
#include "models/sctp/sctp.h"

extern const struct sctp_rwnd_ops sctp_rwnd_old, sctp_rwnd_new;
extern const struct sctp_hb_ops sctp_hb_jitter, sctp_hb_lazy;

const struct sctp_rwnd_ops *const sctp_rwnd_variants[] = { &sctp_rwnd_old, &sctp_rwnd_new, NULL };
const struct sctp_hb_ops *const sctp_hb_variants[] = { &sctp_hb_jitter, &sctp_hb_lazy, NULL };

const struct sctp_rwnd_ops *sctp_rwnd_find(const char *name)
{
    for (int i = 0; sctp_rwnd_variants[i]; i++)
        if (!strcmp(sctp_rwnd_variants[i]->name, name))
            return sctp_rwnd_variants[i];
    return NULL;
}

const struct sctp_hb_ops *sctp_hb_find(const char *name)
{
    for (int i = 0; sctp_hb_variants[i]; i++)
        if (!strcmp(sctp_hb_variants[i]->name, name))
            return sctp_hb_variants[i];
    return NULL;
}
