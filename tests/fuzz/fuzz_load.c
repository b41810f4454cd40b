/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_load.c - libFuzzer harness: the scenario loader, --set overrides and
 * sweep expansion, the way `netsim sweep` drives them, plus every typed
 * getter on every key, without building a world (fuzz_run.c does that).
 *
 * Input: a scenario with optional "--set " lines (fuzz.h).
 *
 * Besides crashes and leaks it checks what sweep.h promises: the run count
 * is combinations x repeat within SWEEP_MAX_RUNS, a run's combination and
 * replication are in range, a lockstep axis points at a root axis with as
 * many values, and a run applied to a fresh load of the same file leaves no
 * axis behind.
 */
#include <float.h>
#include <stdint.h>
#include <string.h>
#include "sim/config.h"
#include "load/load.h"
#include "load/sweep.h"
#include "tests/fuzz/fuzz.h"

/* A typed getter on every key, picked by the key's name (so that the
 * fuzzer reaches each by renaming a key): the parsers, range messages, the
 * "sweep axis" error and cfg_get's fallback to the default. One getter a
 * key, not all of them: every mismatch is an error, and errors are
 * compared with each other. */
static void ask_everything(struct cfg *c)
{
    static const char *const choices[] = { "reno", "cubic", "bbr", NULL };
    for (int i = 0; i < cfg_section_count(c); i++) {
        struct cfg_section *s = cfg_section_at(c, i);
        cfg_claim(s);
        for (int j = 0; j < cfg_key_count(s); j++) {
            const char *k;
            cfg_key_at(s, j, &k, NULL, NULL);
            uint32_t h = 2166136261u;
            for (const char *p = k; *p; p++)
                h = (h ^ (unsigned char)*p) * 16777619u;
            /* k lives in the section; getters add no keys, so it stays put */
            switch (h % 11) {
            case 0: cfg_time(s, k, "1ms", PS_PER_US, 10 * PS_PER_S, NULL); break;
            case 1: cfg_rate(s, k, "10gbit", NULL); break;
            case 2: cfg_size(s, k, "64K", 64, 1ULL << 31, NULL); break;
            case 3: cfg_percent(s, k, "0%", NULL); break;
            case 4: cfg_int(s, k, "1", INT64_MIN, INT64_MAX, NULL); break;
            case 5: cfg_int(s, k, "4", 1, 64, NULL); break;
            case 6: cfg_double(s, k, "1", -DBL_MAX, DBL_MAX, NULL); break;
            case 7: cfg_double(s, k, "1", 0.01, 100, NULL); break;
            case 8: cfg_bool(s, k, "off", NULL); break;
            case 9: cfg_choice(s, k, "cubic", choices, NULL); break;
            default: cfg_str(s, k, "", NULL); break;
            }
        }
    }
    /* a required key nobody wrote */
    if (cfg_section_count(c))
        cfg_str(cfg_section_at(c, 0), "fuzz-required", NULL, NULL);
    for (int i = 0; i < cfg_param_count(c); i++) {
        const char *k, *v;
        cfg_param_at(c, i, &k, &v);
        FUZZ_CHECK(k && v);
    }
}

static void check_sweep(const struct sweep *sw)
{
    int n = sweep_count(sw), comb = sweep_combinations(sw), rep = sweep_repeat(sw);
    FUZZ_CHECK(comb >= 1 && rep >= 1 && n >= 1 && n <= SWEEP_MAX_RUNS);
    FUZZ_CHECK((int64_t)comb * rep == n);
    for (int i = 0; i < sweep_axis_count(sw); i++) {
        FUZZ_CHECK(sweep_axis_name(sw, i) && *sweep_axis_name(sw, i));
        FUZZ_CHECK(sweep_axis_values(sw, i) >= 1);
        int root = sweep_axis_lockstep(sw, i);
        if (root >= 0) {
            FUZZ_CHECK(root < sweep_axis_count(sw) && root != i);
            FUZZ_CHECK(sweep_axis_lockstep(sw, root) < 0);
            FUZZ_CHECK(sweep_axis_values(sw, root) == sweep_axis_values(sw, i));
        }
    }
}

/* One run as `netsim sweep` builds it: a fresh load, the overrides, the
 * run's axis values. */
static void check_run(const struct fuzz_input *in, const struct sweep *sw, int run)
{
    FUZZ_CHECK(sweep_combination(sw, run) >= 0 && sweep_combination(sw, run) < sweep_combinations(sw));
    FUZZ_CHECK(sweep_rep(sw, run) >= 0 && sweep_rep(sw, run) < sweep_repeat(sw));
    (void)sweep_seed(sw, run);
    const char *label = sweep_label(sw, run);
    FUZZ_CHECK(label && (sweep_axis_count(sw) == 0) == (*label == '\0'));
    /* an axis folded into its lockstep root (same values) has no param */
    const char *const *p = sweep_params(sw, run);
    int np = 0;
    while (np < sweep_axis_count(sw) && p[2 * np]) {
        FUZZ_CHECK(p[2 * np + 1] && !strstr(p[2 * np + 1], "${"));
        np++;
    }
    FUZZ_CHECK(p[2 * np] == NULL && (np > 0) == (sweep_axis_count(sw) > 0));

    struct cfg *c = fuzz_load(in);
    if (!c)
        return;
    fuzz_override(c, in);
    sweep_apply(c, sw, run);
    FUZZ_CHECK(!cfg_has_axes(c, NULL, NULL));
    cfg_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct fuzz_input in;
    fuzz_split(&in, data, size);
    struct cfg *c = fuzz_load(&in);
    if (!c) {
        fuzz_input_free(&in);
        return 0;
    }
    fuzz_override(c, &in);
    if (!cfg_errors(c)) {
        struct sweep *sw = sweep_expand(c);
        FUZZ_CHECK(sw || cfg_errors(c));
        if (sw) {
            check_sweep(sw);
            int n = sweep_count(sw);
            /* the first, the last, and one in the middle of a long sweep */
            check_run(&in, sw, 1);
            if (n > 1)
                check_run(&in, sw, n);
            if (n > 2)
                check_run(&in, sw, 1 + n / 2);
            sweep_free(sw);
        }
    }
    ask_everything(c);
    cfg_finish(c);
    cfg_print_errors(c, fuzz_devnull());
    cfg_free(c);
    fuzz_input_free(&in);
    return 0;
}
