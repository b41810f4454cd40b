#!/usr/bin/env bash
# Scenario tests of `netsim sweep`: the run list, identical rows whatever
# -j or sharding (GNU parallel + netsim merge), Ctrl-C then --resume, a
# crashing worker, and axis errors. Run from the repo root:
#   NETSIM=./netsim bash tests/scenario/sweep.sh
. "$(dirname "$0")/common.bash"
d=$tmp

# Every row a run leaves, minus what differs between two executions of
# the same run (started_at, wall_s, hostname).
dump() {
    sqlite3 "$1" "
        SELECT id, scenario, variant_label, seed, rep, events, status, error, scenario_hash, sim_s FROM run ORDER BY id;
        SELECT run_id, key, value FROM param ORDER BY 1, 2, 3;
        SELECT * FROM interval ORDER BY 1, 2, 3;
        SELECT * FROM counter ORDER BY 1, 2;
        SELECT * FROM series ORDER BY 1, 2, 3;
        SELECT * FROM profile ORDER BY 1, 2, 3;"
}
same_rows() { dump "$1" >"$d/a.txt" && dump "$2" >"$d/b.txt" && diff "$d/a.txt" "$d/b.txt" >/dev/null; }
q() { sqlite3 "$@"; }

# udp_line_rate.ini, shortened, with a 3 x 2 sweep and 2 replications: 12 runs.
sc=$d/tiny.ini
sed -e 's/^duration = 10s/duration = 0.2s\nrepeat = 2/' -e 's/^interval = 1s/interval = 0.1s/' \
    -e 's/^propagation = 25us/propagation = ${25us, 50us, 100us}/' \
    -e 's/^msg_size = 1472/msg_size = ${m=1000, 1472}/' scenarios/udp_line_rate.ini >"$sc"

# --dry-run: 12 runs, the last axis fastest, replications paired.
"$NETSIM" sweep "$sc" --dry-run >"$d/dry.txt" 2>"$d/dry.err"
rc=$?
check dry_run_count test "$rc" -eq 0 -a "$(grep -c '^run ' "$d/dry.txt")" -eq 12
check dry_run_labels test "$(awk '{print $NF}' "$d/dry.txt" | tr '\n' ' ')" = \
"propagation=25us,m=1000 propagation=25us,m=1000 propagation=25us,m=1472 propagation=25us,m=1472 propagation=50us,m=1000 propagation=50us,m=1000 \
propagation=50us,m=1472 propagation=50us,m=1472 propagation=100us,m=1000 propagation=100us,m=1000 propagation=100us,m=1472 propagation=100us,m=1472 "
check dry_run_seeds test "$(awk '$4 == 0 {print $6}' "$d/dry.txt" | sort -u | wc -l)" -eq 1 \
    -a "$(awk '$4 == 1 {print $6}' "$d/dry.txt" | sort -u | wc -l)" -eq 1 \
    -a "$(awk '{print $6}' "$d/dry.txt" | sort -u | wc -l)" -eq 2
check dry_run_no_db test ! -e "results/tiny.db"

# -j 1 and -j 2 give the same rows.
"$NETSIM" sweep "$sc" -j 1 -o "$d/j1.db" -q 2>/dev/null
rc1=$?
"$NETSIM" sweep "$sc" -j 2 -o "$d/j2.db" -q 2>/dev/null
rc2=$?
check j1_complete test "$rc1" -eq 0 -a "$(q "$d/j1.db" "SELECT count(*) FROM run WHERE status = 'complete'")" -eq 12
check j1_ids_labels test "$(q "$d/j1.db" "SELECT id || ':' || variant_label FROM run ORDER BY id" | sed -n '1p;12p' | tr '\n' ' ')" \
    = "1:propagation=25us,m=1000 12:propagation=100us,m=1472 "
check j1_axis_params test "$(q "$d/j1.db" "SELECT key || '=' || value FROM param WHERE run_id = 12 AND key LIKE 'axis.%' ORDER BY key" | tr '\n' ' ')" \
    = "axis.m=1472 axis.propagation=100us "
check j2_complete test "$rc2" -eq 0 -a "$(q "$d/j2.db" "SELECT count(*) FROM run WHERE status = 'complete'")" -eq 12
check j2_same_rows_as_j1 same_rows "$d/j1.db" "$d/j2.db"
check no_temp_files test -z "$(ls "$d" | grep -E '\.tmp|\.log')"

# Shards through GNU parallel, then merge: the same rows again.
parallel --will-cite -j2 "$NETSIM" sweep "$sc" --shard {}/2 -o "$d/shard{}.db" -q ::: 1 2 2>/dev/null
rc=$?
check shards_run test "$rc" -eq 0 -a "$(q "$d/shard1.db" "SELECT group_concat(id) FROM run")" = "1,3,5,7,9,11"
"$NETSIM" merge "$d/merged.db" "$d/shard1.db" "$d/shard2.db" >/dev/null 2>&1
check shards_merged_same_rows same_rows "$d/j1.db" "$d/merged.db"

# --emit-jobs: one command per run, each into its own database.
"$NETSIM" sweep "$sc" --emit-jobs -o "$d/e.db" >"$d/jobs.txt" 2>/dev/null
check emit_jobs_lines test "$(grep -c -- '--only' "$d/jobs.txt")" -eq 12
parallel --will-cite -j2 <"$d/jobs.txt" >/dev/null 2>&1
"$NETSIM" merge "$d/emerged.db" "$d"/e.run*.db >/dev/null 2>&1
check emit_jobs_merged_same_rows same_rows "$d/j1.db" "$d/emerged.db"

# Wait until DB holds a complete run (at most 20 s).
wait_complete() {
    for _ in $(seq 200); do
        [ "$(q "$1" "SELECT count(*) FROM run WHERE status = 'complete'" 2>/dev/null)" -ge 1 ] 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# Ctrl-C midway: complete runs stay complete, the running one is marked
# interrupted (or absent), exit 130; --resume completes the sweep.
"$NETSIM" sweep "$sc" -j 1 -o "$d/int.db" -q --set sim.duration=3s 2>/dev/null &
pid=$!
wait_complete "$d/int.db"
kill -INT $pid
wait $pid
rc=$?
check interrupt_exit_130 test "$rc" -eq 130
ncomplete=$(q "$d/int.db" "SELECT count(*) FROM run WHERE status = 'complete'")
check interrupt_keeps_complete test "$ncomplete" -ge 1 -a "$ncomplete" -lt 12 \
    -a "$(q "$d/int.db" "SELECT count(*) FROM run WHERE status = 'complete' AND sim_s = 3.0")" -eq "$ncomplete"
check interrupt_marks_interrupted test "$(q "$d/int.db" "SELECT count(*) FROM run WHERE status NOT IN ('complete', 'interrupted')")" -eq 0 \
    -a "$(q "$d/int.db" "SELECT count(*) FROM run WHERE status = 'interrupted'")" -le 1
"$NETSIM" sweep "$sc" -j 1 -o "$d/int.db" -q --set sim.duration=3s 2>/dev/null
check rerun_without_resume_refused test $? -eq 2
"$NETSIM" sweep "$sc" -j 2 -o "$d/int.db" -q --set sim.duration=3s --resume 2>/dev/null
rc=$?
check resume_completes test "$rc" -eq 0 \
    -a "$(q "$d/int.db" "SELECT count(*) || ' ' || sum(status = 'complete') || ' ' || sum(sim_s = 3.0) || ' ' || max(id) FROM run")" = "12 12 12 12"

# A worker that crashes: its run is 'failed', the others complete, exit 1.
"$NETSIM" sweep "$sc" -j 1 -o "$d/crash.db" -q --set sim.duration=2s 2>/dev/null &
pid=$!
wait_complete "$d/crash.db"
for _ in $(seq 100); do    # the worker of the next run (none for a moment between runs)
    child=$(pgrep -P $pid | head -1)
    [ -n "$child" ] && break
    sleep 0.02
done
kill -SEGV ${child:-0} 2>/dev/null
wait $pid
rc=$?
check crash_recorded_failed test "$rc" -eq 1 \
    -a "$(q "$d/crash.db" "SELECT count(*) FROM run WHERE status = 'failed' AND (error LIKE 'killed by signal 11%' OR error LIKE '%SEGV%')")" -eq 1 \
    -a "$(q "$d/crash.db" "SELECT count(*) FROM run WHERE status = 'complete'")" -eq 11

# A bad axis: exit 2, file:line, no database.
sed 's/^msg_size = .*/msg_size = ${1000, 1472 ! nope}/' "$sc" >"$d/bad.ini"
"$NETSIM" sweep "$d/bad.ini" -o "$d/bad.db" 2>"$d/bad.err"
rc=$?
line=$(grep -n '^msg_size' "$d/bad.ini" | cut -d: -f1)
check bad_axis_exit_2 test "$rc" -eq 2 -a ! -e "$d/bad.db"
check bad_axis_file_line grep -qF "$d/bad.ini:$line: [flow 1] msg_size: '\${1000, 1472 ! nope}': no axis named 'nope'" "$d/bad.err"

# A bad value in one combination only: exit 2 before anything runs.
sed 's/^propagation = .*/propagation = ${25us, 50xs}/' "$sc" >"$d/bad2.ini"
"$NETSIM" sweep "$d/bad2.ini" -o "$d/bad2.db" 2>"$d/bad2.err"
rc=$?
line=$(grep -n '^propagation' "$d/bad2.ini" | cut -d: -f1)
check bad_value_exit_2 test "$rc" -eq 2 -a ! -e "$d/bad2.db"
check bad_value_file_line grep -q "^$d/bad2.ini:$line: \[link wire\] propagation: got '50xs'" "$d/bad2.err"
