/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * run_record.h - how `netsim run` records its run in OUT without holding
 * OUT while it simulates, and without losing the run to a full disk, a
 * lock held too long or a killed process.
 *
 * 1. OUT is opened (its schema created or checked), and the side files
 *    that earlier `netsim run`s of OUT left (orphans.h) are copied in.
 * 2. A claim OUT.pending.XXXXXX is made, locked, and given the run's row
 *    and parameters as 'failed' with the error "not recorded: ... ended
 *    before ...": if the process dies or nothing else can be written, that
 *    is what the next start records. No claim, nothing runs (exit 1).
 * 3. The run is simulated into a scratch database in memory: no file is
 *    touched and no lock is held while it runs.
 * 4. The finished run is copied into OUT in one transaction (OUT's lock
 *    is held for that copy only), and the claim is removed.
 * 5. If that copy fails, the results replace the claim (still locked, so
 *    only the next start takes it), or, when there is no room beside OUT,
 *    go to $TMPDIR with the claim's error saying where; failing both, the
 *    claim's error says why the results are lost. The report says which
 *    on stdout, and the exit status is 1.
 */
#ifndef NETSIM_RUN_RECORD_H
#define NETSIM_RUN_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct run_opts;
struct run_record;

/* Steps 1 and 2, and the scratch database; fills o->claim, claim_error,
 * deliver and deliver_arg, to give to runner_run with
 * run_record_scratch() as its database. NULL after printing why (nothing
 * was run, exit status 1). */
struct run_record *run_record_open(const char *out, struct run_opts *o);
struct rec *run_record_scratch(struct run_record *rr);

/* Steps 4 and 5 (the deliver hook of struct run_opts): the run's id in
 * OUT, or -1. */
int64_t run_record_deliver(void *rr, int64_t run_id, char *msg, size_t n);

/* Closes the databases; a claim left (the run was not delivered, e.g.
 * runner_run refused the scenario) is removed if it holds no run. */
void run_record_close(struct run_record *rr);

#endif
