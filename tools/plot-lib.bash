# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# tools/plot-lib.bash - sourced by tools/plot: its command line and the
# gnuplot side (script preamble, key, rendering), apart from the database
# and the kinds of plot, so that neither file outgrows the project's 600
# lines. Functions and constants only: sourcing it runs nothing. Installed
# as share/netsim/plot-lib.bash, found from netsim-plot in ../share/netsim.
# Its variables are set and read across both files, which shellcheck sees
# checking tools/plot but not this file alone.
# shellcheck disable=SC2034,SC2154

usage() {
    sed "s|@PROG@|$prog|g" <<'EOF'
usage: @PROG@ DB [options]

Plots a netsim results database with gnuplot.

options:
  --kind K            throughput (default): goodput over time, one line per
                        variant; with repeats the mean and a min..max band
                      sweep: a metric against a swept axis, drawn by
                        `netsim plot` (the numbers of `netsim report`): the
                        mean of each combination's repeats with its 95%
                        confidence interval, one line per variant
                      series: a trace from the series table, one line per run
                      cdf: CDF of per-interval goodput, one line per variant
                      fct: CDF of message completion times (the message
                        table: rpc responses, bytes flows, incast blocks;
                        log x), one line per variant, its runs pooled
                      slowdown: slowdown (fct / ideal) against message size,
                        median (solid) and 99th percentile (dashed) per
                        bin of a quarter decade of size, one colour per
                        variant, log-log
  --series NAME       the trace to plot (kind series; optional if the DB has one)
  --run IDS           plot only these runs, each its own line (not with
                        sweep): an id, a list, ranges (3,5,8 or 1-4); given
                        again, it adds runs. A line is named by its label,
                        with the rep (or run id) where labels are alike
  --time FROM:TO      only what lies in this window of simulated time (not
                        with sweep): throughput and series take it as their
                        x range and read only the intervals lying wholly in
                        it and the samples in it; cdf counts those
                        intervals, fct and slowdown the messages that
                        started in it. Times in s, ms, us or ns (1.5s,
                        200ms; a bare number is seconds), bounds included;
                        either may be left out (1.5s: or :200ms)
  --flow N            goodput of flow N only (default: the sum over flows)
  --by-flow           throughput: one line per flow of each run, labelled with
                        the flow's description (flows side by side in one run)
  --axis NAME         sweep: the axis for x (default: the single axis that is
                        not the variant axis)
  --variant-axis NAME sweep: the axis whose values make the lines (default:
                        an axis with non-numeric values, e.g. old/new)
  --metric NAME       sweep (implied): goodput, retransmits, rtt, drops, jain
                        or counter:NAME, as netsim report --metric
  --by flow|host      sweep (implied): a line per flow or host
  --logx, --no-logx   sweep: a log x axis or not (default: log when the values
                        are powers of two or of ten, or span over a decade)
  -o, --output FILE   FILE.png or FILE.svg (default: next to DB,
                        DB-stem_KIND.png; series: DB-stem_series_NAME.png)
  --size WxH          image size in pixels (default 1000x600)
  --title T           title (default: what is plotted, the scenario)
  -h, --help          this text

Lines take the 10 colours of Tableau 10 and, from the 11th line on, dash
patterns: 50 distinct styles (series: a colour per variant, its repeats
dashed; slowdown: dashed is the 99th percentile, and from the 11th variant
on the points change shape). Past that, styles repeat: a warning on
stderr says so, and --run or --flow draws fewer lines.

Only runs with status 'complete' are plotted. PLOT_DEBUG=1 in the
environment prints the gnuplot script and keeps the temporary files.
The sweep kind runs netsim: $NETSIM if set, else the netsim installed
beside this script, ../netsim from it in the source tree, or the one on
PATH; `netsim plot --help` has the rest of its options.
EOF
}

die() { printf '%s: %s\n' "$prog" "$*" >&2; exit 2; }
fail() { printf '%s: %s\n' "$prog" "$*" >&2; exit 1; }

# ---------------------------------------------------------------- arguments
need() { [ $# -ge 2 ] || die "option $1 needs a value (try --help)"; }
parse_args() {
    db="" kind="" series="" run_specs=() time_spec="" time_given="" flow="" by_flow="" axis="" vaxis="" out="" size=1000x600 title=""
    metric="" by="" logx=""
    while [ $# -gt 0 ]; do
        case $1 in
        -h|--help) usage; exit 0 ;;
        --by-flow) by_flow=1; shift; continue ;;
        --logx|--no-logx) logx=$1; shift; continue ;;
        --kind|--series|--run|--time|--flow|--axis|--variant-axis|-o|--output|--size|--title|--metric|--by)
            need "$@"; opt=$1; val=$2; shift 2 ;;
        --kind=*|--series=*|--run=*|--time=*|--flow=*|--axis=*|--variant-axis=*|--output=*|--size=*|--title=*|--metric=*|--by=*)
            opt=${1%%=*}; val=${1#*=}; shift ;;
        --) shift; [ $# -gt 0 ] && { [ -z "$db" ] || die "more than one database given"; db=$1; shift; }
            [ $# -eq 0 ] || die "unexpected argument '$1'"; break ;;
        -*) die "unknown option '$1' (try --help)" ;;
        *) [ -z "$db" ] || die "more than one database given ('$db', '$1')"; db=$1; shift; continue ;;
        esac
        case $opt in
        --kind) kind=$val ;;
        --series) series=$val ;;
        --run) run_specs+=("$val") ;;
        --time) time_spec=$val; time_given=1 ;;
        --flow) flow=$val ;;
        --axis) axis=$val ;;
        --variant-axis) vaxis=$val ;;
        -o|--output) out=$val ;;
        --size) size=$val ;;
        --title) title=$val ;;
        --metric) metric=$val ;;
        --by) by=$val ;;
        esac
    done
}

# check_args: the options against each other and the database's path,
# before anything reads it.
check_args() {
    [ -n "$db" ] || { usage >&2; exit 2; }
    # a metric is measured against a swept axis: netsim plot's
    if [ -z "$kind" ]; then
        if [ -n "$metric$by$logx$axis$vaxis" ]; then kind=sweep; else kind=throughput; fi
    fi
    case $kind in
    throughput|sweep|series|cdf|fct|slowdown) ;;
    *) die "unknown kind '$kind' (expected throughput, sweep, series, cdf, fct or slowdown)" ;;
    esac
    [[ $size =~ ^([0-9]+)[x,]([0-9]+)$ ]] || die "--size: expected WxH such as 1000x600, got '$size'"
    width=$((10#${BASH_REMATCH[1]})) height=$((10#${BASH_REMATCH[2]}))
    if [ "$width" -lt 200 ] || [ "$width" -gt 10000 ] || [ "$height" -lt 150 ] || [ "$height" -gt 10000 ]; then
        die "--size: $size out of range (200x150 to 10000x10000)"
    fi
    parse_runs
    parse_time
    [ -z "$flow" ] || [[ $flow =~ ^[0-9]+$ ]] || die "--flow: expected a flow number, got '$flow'"
    [ "$kind" = series ] || [ -z "$series" ] || die "--series only goes with --kind series"
    [ "$kind" = throughput ] || [ -z "$by_flow" ] || die "--by-flow only goes with --kind throughput"
    if [ "$kind" != sweep ]; then
        for o in metric by logx axis vaxis; do
            [ -z "${!o}" ] || die "--${o/vaxis/variant-axis} only goes with --kind sweep (a metric against a swept axis)"
        done
    fi
    [ "$kind" != sweep ] || [ -z "$run" ] || die "--run does not go with --kind sweep: every complete run of a sweep is a point"
    [ "$kind" != sweep ] || [ -z "$time_given" ] ||
        die "--time does not go with --kind sweep: a sweep's points are whole runs"

    [ -e "$db" ] || die "$db: no such file"
    [ -f "$db" ] || die "$db: not a regular file"
    [ -r "$db" ] || die "$db: not readable"
}

# parse_runs: every --run's ids and ranges, merged into run_ranges ("FROM
# TO" lines, sorted and disjoint), so that the SQL names a range by its
# ends however many ids it spans; run (empty without --run) and runsdesc
# say them for messages and titles ("run 3", "runs 1-4, 8").
parse_runs() {
    local s
    run="" run_ranges="" runsdesc=""
    [ ${#run_specs[@]} -gt 0 ] || return 0
    for s in "${run_specs[@]}"; do
        # 15 digits: exact in awk's doubles, and beyond any run id
        [[ $s =~ ^[0-9]{1,15}(-[0-9]{1,15})?(,[0-9]{1,15}(-[0-9]{1,15})?)*$ ]] ||
            die "--run: expected run ids, a list or ranges such as 3, 3,5,8 or 1-4, got '$s'"
    done
    s=$(printf '%s\n' "${run_specs[@]}" | tr ',' '\n' | awk -F- 'NF == 2 && $1 + 0 > $2 + 0 { print; exit }')
    [ -z "$s" ] || die "--run: the range $s runs backwards (expected FROM-TO with FROM <= TO)"
    run_ranges=$(printf '%s\n' "${run_specs[@]}" | tr ',' '\n' |
        awk -F- '{ printf "%.0f %.0f\n", $1, (NF > 1 ? $2 : $1) }' | sort -k1,1n -k2,2n |
        awk 'NR > 1 && $1 <= b + 1 { if ($2 > b) b = $2; next }
             NR > 1 { printf "%.0f %.0f\n", a, b } { a = $1; b = $2 } END { printf "%.0f %.0f\n", a, b }')
    run=$(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), ($1 == $2 ? $1 : $1 "-" $2) }' <<<"$run_ranges")
    if [[ $run =~ ^[0-9]+$ ]]; then runsdesc="run $run"; else runsdesc="runs $run"; fi
}

# parse_time: --time FROM:TO in seconds, tfrom and tto (empty: open), the
# bounds the queries compare with, tlo and thi, and tdesc for titles.
parse_time() {
    local f t want="FROM:TO with times such as 1.5s, 200ms or 50us (a bare number is seconds; either side may be empty, as in 1.5s: or :200ms)"
    tfrom="" tto="" tlo="" thi="" tdesc=""
    [ -n "$time_given" ] || return 0
    [[ $time_spec =~ ^([^:]*):([^:]*)$ ]] || die "--time: expected $want, got '$time_spec'"
    f=${BASH_REMATCH[1]} t=${BASH_REMATCH[2]}
    [ -n "$f$t" ] || die "--time: expected FROM, TO or both (such as 1.5s:2s, 1.5s: or :200ms), got '$time_spec'"
    tfrom=$(to_seconds "$f") || die "--time: expected $want, got '$time_spec'"
    tto=$(to_seconds "$t") || die "--time: expected $want, got '$time_spec'"
    if [ -n "$tfrom" ] && [ -n "$tto" ] && awk -v a="$tfrom" -v b="$tto" 'BEGIN { exit !(a >= b) }'; then
        die "--time: FROM must be before TO, got '$time_spec' ($tfrom s to $tto s)"
    fi
    # Half a picosecond of slack, less than any two of netsim's times
    # differ by: a bound and a time stored for the same instant can be
    # doubles an ulp apart (netsim divides picoseconds, but a database
    # made by a script may multiply: 24 * 0.05 is 1.2000000000000002), and
    # the bound must take the sample or interval that lies on it.
    [ -z "$tfrom" ] || tlo=$(awk -v a="$tfrom" 'BEGIN { printf "%.17g", a - 5e-13 }')
    [ -z "$tto" ] || thi=$(awk -v a="$tto" 'BEGIN { printf "%.17g", a + 5e-13 }')
    [[ $f =~ [a-z]$ ]] || f=${f:+${f}s}
    [[ $t =~ [a-z]$ ]] || t=${t:+${t}s}
    if [ -n "$f" ] && [ -n "$t" ]; then tdesc="$f to $t"; elif [ -n "$f" ]; then tdesc="from $f"; else tdesc="until $t"; fi
}
# to_seconds TIME: TIME (s, ms, us or ns; a bare number is seconds) in
# seconds, empty for empty; fails on anything else.
to_seconds() {
    [ -n "$1" ] || return 0
    [[ $1 =~ ^([0-9]+(\.[0-9]*)?|\.[0-9]+)(s|ms|us|ns)?$ ]] || return 1
    awk -v v="${BASH_REMATCH[1]}" -v u="${BASH_REMATCH[3]}" \
        'BEGIN { printf "%.15g\n", v / (u == "ms" ? 1e3 : u == "us" ? 1e6 : u == "ns" ? 1e9 : 1) }'
}

# ---------------------------------------------------------------- sweep: netsim plot
# The netsim to hand a sweep to: $NETSIM (the tests' build), else the one
# installed beside netsim-plot, the tree's ../netsim, or the one on PATH.
netsim_bin() {
    local here
    here=$(dirname "$0")
    if [ -n "${NETSIM:-}" ] && [ -x "$NETSIM" ]; then printf '%s\n' "$NETSIM"
    elif [ -x "$here/netsim" ] && [ ! -d "$here/netsim" ]; then printf '%s\n' "$here/netsim"
    elif [ -x "$here/../netsim" ] && [ ! -d "$here/../netsim" ]; then printf '%s\n' "$here/../netsim"
    else command -v netsim || fail "netsim not found (beside $0, in its parent directory or on PATH; or set NETSIM)"
    fi
}
hand_to_netsim_plot() {
    local o v bin args=("$db" --size "$size")
    for o in axis:--axis vaxis:--variant-axis out:-o title:--title metric:--metric by:--by flow:--flow; do
        v=${o%%:*}
        [ -z "${!v}" ] || args+=("${o#*:}" "${!v}")
    done
    [ -z "$logx" ] || args+=("$logx")
    # PLOT_DEBUG: the script netsim plot writes, data inline, on stderr
    [ -z "${PLOT_DEBUG:-}" ] || args+=(--script /dev/stderr)
    bin=$(netsim_bin) || exit 1
    exec "$bin" plot "${args[@]}"
}

# ---------------------------------------------------------------- helpers
# q SQL: one query, space-separated columns; q_tab SQL: tab-separated.
q() { sqlite3 -readonly -batch -noheader -cmd '.timeout 10000' -separator ' ' "$db" "$1" 2>"$tmp/sqlerr"; }
q_tab() { sqlite3 -readonly -batch -noheader -cmd '.timeout 10000' -separator $'\t' "$db" "$1" 2>"$tmp/sqlerr"; }
qerr() { fail "$db: sqlite3: $(head -c 300 "$tmp/sqlerr")"; }
sqlq() { printf "'%s'" "${1//\'/\'\'}"; }          # SQL string literal
gpq() { printf "'%s'" "${1//\'/\'\'}"; }           # gnuplot string literal
join_by() { local IFS=$1; shift; printf '%s' "$*"; }
# Clean a label for gnuplot (control characters to spaces).
clean() { printf '%s' "$1" | tr '\000-\037' ' '; }

# Colours (Tableau 10, readable on white); line i uses colour i mod 10 and,
# from the 11th line on, a dash pattern: 50 styles, then they repeat, which
# write_plot counts and render says.
colors=('#1f77b4' '#ff7f0e' '#2ca02c' '#d62728' '#9467bd' '#8c564b' '#e377c2' '#7f7f7f' '#bcbd22' '#17becf')
color() { printf '%s' "${colors[$(($1 % 10))]}"; }
dash() { printf '%s' $(($1 / 10 % 5 + 1)); }

# Goodput unit for a maximum in bit/s: sets yunit and yscale.
pick_unit() {
    local m=$1
    if awk -v m="$m" 'BEGIN { exit !(m >= 1e9) }'; then yunit="Gbit/s" yscale=1e9
    elif awk -v m="$m" 'BEGIN { exit !(m >= 1e6) }'; then yunit="Mbit/s" yscale=1e6
    elif awk -v m="$m" 'BEGIN { exit !(m >= 1e3) }'; then yunit="kbit/s" yscale=1e3
    else yunit="bit/s" yscale=1
    fi
}

# ---------------------------------------------------------------- output + common gnuplot
# output_path: the image's path (default next to DB) and format
output_path() {
    if [ -z "$out" ]; then
        if [ "$kind" = series ]; then out="$dbdir/${stem}_series_@.png"; else out="$dbdir/${stem}_${kind}.png"; fi
    fi
    case ${out,,} in
    *.png) fmt=png ;;
    *.svg) fmt=svg ;;
    *) die "-o $out: the output must end in .png or .svg" ;;
    esac
    outdir=$(dirname "$out")
    [ -d "$outdir" ] || die "-o $out: no directory $outdir"
}
preamble() {   # $1 title, $2 xlabel, $3 ylabel
    {
        if [ "$fmt" = png ]; then
            echo "set terminal pngcairo size $width,$height font 'sans,11' noenhanced background rgb 'white'"
        else
            echo "set terminal svg size $width,$height dynamic font 'sans,11' noenhanced background rgb 'white'"
        fi
        echo "set output $(gpq "$out")"
        echo "set encoding utf8"
        echo "set title $(gpq "$(clean "$1")") font 'sans,13'"
        echo "set xlabel $(gpq "$2")"
        echo "set ylabel $(gpq "$3")"
        echo "set style line 100 lc rgb '#d9d9d9' lw 1 dt solid"
        echo "set grid back xtics ytics ls 100, ls 100"
        echo "set border 3 lc rgb '#555555'"
        echo "set tics nomirror out scale 0.6"
        echo "set datafile separator whitespace"
        echo "set datafile missing 'NaN'"
        echo "set offsets graph 0, graph 0, graph 0.05, graph 0"
    } >"$gp"
}
# ktitle LABEL: KT = the gnuplot title for a key entry; records its length.
keylens=()
ktitle() {
    local l
    l=$(clean "$1")
    keylens+=(${#l})
    KT=$(gpq "$l")
}
# write_plot ITEM...: the key below the plot, in as many columns as fit,
# then the plot command. gnuplot sizes the bottom margin itself: a fixed
# one put the first rows of a long key over the x label.
write_plot() {
    local n=${#keylens[@]} maxlen=0 l cols
    for l in "${keylens[@]}"; do [ "$l" -le "$maxlen" ] || maxlen=$l; done
    # about 6.5 px per character of sans 11 at these sizes, plus the sample
    cols=$(( (width - 80) * 10 / ((maxlen + 8) * 65) ))
    [ "$cols" -ge 1 ] || cols=1
    [ "$cols" -le 4 ] || cols=4
    [ "$cols" -le "$n" ] || cols=$n
    [ "$cols" -ge 1 ] || cols=1
    {
        echo "set key outside below center horizontal Left reverse samplen 3 maxcols $cols noenhanced height 1"
        echo "plot $(join_by , "$@")"
    } >>"$gp"
    # The lines in the key that look alike (colour, dash pattern, point):
    # the style as gnuplot gets it, whichever scheme the kind follows; the
    # title left out, as a label may read like a style.
    local item st re="lc rgb '([^']*)' dt ([0-9]+)" pt=" pt ([0-9]+)"
    local -A seen=()
    nlines=0 nshared=0
    for item in "$@"; do
        item=${item%% title \'*}
        [[ $item != *notitle* && $item =~ $re ]] || continue
        st="${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
        [[ ! $item =~ $pt ]] || st="$st ${BASH_REMATCH[1]}"
        nlines=$((nlines + 1))
        [ -z "${seen[$st]+set}" ] || nshared=$((nshared + 1))
        seen[$st]=1
    done
}
render() {
    [ -z "${PLOT_DEBUG:-}" ] || { echo "--- gnuplot script ($tmp kept)" >&2; cat "$gp" >&2; trap - EXIT; }
    gnuplot "$gp" >"$tmp/gperr" 2>&1 || { sed 's/^/  /' "$tmp/gperr" >&2; fail "gnuplot failed"; }
    [ -s "$out" ] || fail "gnuplot wrote nothing to $out"
    if [ "${nshared:-0}" -gt 0 ]; then
        printf '%s: warning: line styles repeat: %d lines in %d distinct styles (10 colours x 5 dash patterns), some alike\n' \
            "$prog" "$nlines" $((nlines - nshared)) >&2
    fi
    printf '%s\n' "$out"
}
