/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - what the libFuzzer harnesses share: the input format of the
 * scenario harnesses, loading it as `netsim run` would, and the check that
 * turns a broken invariant into a crash libFuzzer keeps.
 *
 * A scenario input is an INI file in which a line starting with "--set "
 * is not part of the file but a command-line override: the rest of the
 * line is the SECTION.KEY=VALUE of one `--set`, applied in order after
 * loading. The line stays in the file as an empty line, so that the line
 * numbers of errors are those of the input. This lets one input carry what
 * a user types on both sides, and lets the seeds be the scenarios the tests
 * run together with the overrides they pass.
 *
 * Everything here is static: each harness is one translation unit.
 */
#ifndef NETSIM_TESTS_FUZZ_H
#define NETSIM_TESTS_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "sim/config.h"
#include "load/load.h"

/* A broken invariant aborts, so libFuzzer saves the input as a crash. */
#define FUZZ_CHECK(cond)                                                                       \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);     \
            abort();                                                                           \
        }                                                                                      \
    } while (0)

/* netsim run takes at most this many --set options. */
#define FUZZ_MAX_SETS 256

struct fuzz_input {
    char *text;                  /* the file: NUL-terminated; may hold NULs before its end */
    size_t len;                  /* its bytes, inner NULs included */
    const char *sets[FUZZ_MAX_SETS];
    int nsets;
};

/* Splits data into the file and its --set lines. */
static inline void fuzz_split(struct fuzz_input *in, const uint8_t *data, size_t size)
{
    static const char prefix[] = "--set ";
    const size_t np = sizeof prefix - 1;
    in->text = malloc(size + 1);
    FUZZ_CHECK(in->text);
    memcpy(in->text, data, size);
    in->text[size] = '\0';
    in->len = size;
    in->nsets = 0;
    for (size_t i = 0; i < size;) {
        char *line = in->text + i;
        char *nl = memchr(line, '\n', size - i);
        size_t n = nl ? (size_t)(nl - line) : size - i;
        if (n >= np && !memcmp(line, prefix, np) && in->nsets < FUZZ_MAX_SETS) {
            /* the assignment is copied out and the line blanked in place */
            char *set = malloc(n - np + 1);
            FUZZ_CHECK(set);
            memcpy(set, line + np, n - np);
            set[n - np] = '\0';
            in->sets[in->nsets++] = set;
            memset(line, ' ', n);
        }
        i += n + 1;
    }
}

static inline void fuzz_input_free(struct fuzz_input *in)
{
    for (int i = 0; i < in->nsets; i++)
        free((void *)in->sets[i]);
    free(in->text);
}

/*
 * The file as cfg_load() or cfg_load_string() reads it. cfg_load_string
 * stops at a NUL, so a file holding one goes through cfg_load() from an
 * in-memory file, which is how its "NUL byte" error is reached; nothing
 * touches the disk. Returns NULL only when out of memory.
 */
static inline struct cfg *fuzz_load(const struct fuzz_input *in)
{
    if (strlen(in->text) == in->len)
        return cfg_load_string("fuzz.ini", in->text);
    int fd = memfd_create("fuzz.ini", MFD_CLOEXEC);
    FUZZ_CHECK(fd >= 0);
    FUZZ_CHECK(write(fd, in->text, in->len) == (ssize_t)in->len);
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    struct cfg *c = cfg_load(path);
    close(fd);
    return c;
}

/* The overrides, as `netsim run` applies them: until the first error. */
static inline void fuzz_override(struct cfg *c, const struct fuzz_input *in)
{
    for (int i = 0; i < in->nsets && !cfg_errors(c); i++)
        cfg_override(c, in->sets[i]);
}

/* A sink for the error and report text the harnesses format, so that the
 * formatting runs without filling the fuzzer's log. */
static inline FILE *fuzz_devnull(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    FUZZ_CHECK(f);
    return f;
}

/* libFuzzer's entry point, which each harness defines */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
