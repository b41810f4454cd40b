#!/usr/bin/env bash
# tools/plot-all.sh [DIR] - renders the plots of every results database
# DIR/*.db (default: the repo's results/) into DIR with tools/plot:
# throughput over time; goodput against the swept axis when the runs carry
# axis.* params (one plot per axis if several vary independently); and each
# series when a database has at most 6 distinct series names. Prints each
# path written. Exit status 0, also when there is nothing to plot; 1 if a
# plot failed for another reason than missing rows (sqlite3/gnuplot error).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
plot=$here/plot
if [ $# -gt 0 ]; then dir=$1
elif [ "$(pwd -P)" = "$(cd "$root" && pwd -P)" ]; then dir=results
else dir=$root/results
fi
[ $# -le 1 ] || { echo "usage: tools/plot-all.sh [DIR]" >&2; exit 2; }
[ -d "$dir" ] || { echo "plot-all: no directory $dir: nothing to plot"; exit 0; }

shopt -s nullglob
dbs=("$dir"/*.db)
if [ ${#dbs[@]} -eq 0 ]; then
    echo "plot-all: no databases in $dir: nothing to plot (run a scenario first, e.g. make run)"
    exit 0
fi

status=0
nplots=0
# try ARGS...: runs tools/plot; a plot that lacks rows (exit 2) is reported
# and skipped, any other failure makes the final status 1.
try() {
    local out rc
    out=$("$plot" "$@" 2>&1); rc=$?
    case $rc in
    0) printf '%s\n' "$out"; nplots=$((nplots + 1)) ;;
    2) printf 'plot-all: skipped: %s\n' "$(printf '%s' "$out" | sed 's/^plot: //' | head -3)" >&2 ;;
    *) printf '%s\n' "$out" >&2; status=1 ;;
    esac
    return $rc
}
q() { sqlite3 -readonly -batch -noheader -cmd '.timeout 10000' "$1" "$2" 2>/dev/null; }

for db in "${dbs[@]}"; do
    stem=$(basename "$db" .db)
    ncomplete=$(q "$db" "SELECT count(*) FROM run WHERE status = 'complete'")
    if [ -z "$ncomplete" ]; then
        echo "plot-all: skipped $db: not a netsim results database" >&2; continue
    elif [ "$ncomplete" = 0 ]; then
        echo "plot-all: skipped $db: no complete runs" >&2; continue
    fi
    try "$db" --kind throughput

    axes=$(q "$db" "SELECT DISTINCT substr(p.key, 6) FROM param p JOIN run r ON r.id = p.run_id
                    WHERE r.status = 'complete' AND p.key LIKE 'axis.%' ORDER BY p.rowid")
    if [ -n "$axes" ]; then
        if ! out=$("$plot" "$db" --kind sweep 2>&1); then
            if printf '%s' "$out" | grep -q 'several swept axes'; then
                while IFS= read -r a; do
                    try "$db" --kind sweep --axis "$a" -o "$dir/${stem}_sweep_$(printf '%s' "$a" | tr -c 'A-Za-z0-9._-' '_').png"
                done <<<"$axes"
            else
                printf 'plot-all: skipped: %s\n' "$(printf '%s' "$out" | sed 's/^plot: //' | head -3)" >&2
            fi
        else
            printf '%s\n' "$out"; nplots=$((nplots + 1))
        fi
    fi

    names=$(q "$db" "SELECT DISTINCT s.name FROM series s JOIN run r ON r.id = s.run_id
                     WHERE r.status = 'complete' ORDER BY s.name")
    if [ -n "$names" ]; then
        n=$(printf '%s\n' "$names" | wc -l)
        if [ "$n" -le 6 ]; then
            while IFS= read -r s; do try "$db" --kind series --series "$s"; done <<<"$names"
        else
            echo "plot-all: $db has $n series; plot them one by one: tools/plot $db --kind series --series NAME" >&2
        fi
    fi
done
[ "$nplots" -gt 0 ] || echo "plot-all: nothing to plot in $dir"
exit $status
