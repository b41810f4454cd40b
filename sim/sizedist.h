/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sizedist.h - a message-size distribution read from a file of CDF points,
 * one "SIZE FRACTION" a line (bytes, cumulative fraction 0..1; '#' starts
 * a comment), sizes and fractions non-decreasing, the last fraction 1.
 * A draw inverts the CDF with linear interpolation between the points, as
 * the literature's traffic generators do (the DCTCP and pFabric authors'
 * empirical-traffic-gen, HPCC's traffic_gen), so a file gives the same
 * sizes here as there. docs/models/tcp-messages.md has the shipped files.
 */
#ifndef NETSIM_SIZEDIST_H
#define NETSIM_SIZEDIST_H

#include <stddef.h>
#include <stdint.h>

struct sizedist {
    uint32_t n;
    double *size, *cdf;
    double mean;                 /* of the interpolated distribution, bytes */
};

/* Reads path (relative paths are taken from the folder of `beside`, the
 * scenario file, when beside has one). 0, or -1 with "FILE:LINE: what was
 * expected" in err. */
int sizedist_load(struct sizedist *d, const char *path, const char *beside, char *err, size_t errlen);
/* The size at quantile u in [0,1), at least 1 byte. */
uint64_t sizedist_draw(const struct sizedist *d, double u);
void sizedist_free(struct sizedist *d);

#endif
