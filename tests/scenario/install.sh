#!/usr/bin/env bash
# make install is a Unix tool's: into an empty DESTDIR with PREFIX=/usr it
# puts netsim, netsim-plot, both man pages, the bash completion and the
# bundled scenarios where their names say; the installed binary runs an
# installed scenario and netsim-plot plots it from outside the tree;
# --version says which build; the pages render without warnings; the
# completion completes commands and keys; make uninstall leaves no file.
. "$(dirname "$0")/common.bash"

D=$tmp/dest
mkdir -p "$D"
# make without the NETSIM this test runs under: make reads it as its own
# NETSIM, and `install: all` rebuilt that binary (under make check-asan,
# netsim-asan as a plain build, which every test after this one then ran).
# The release it installs is the plain build here (RELEASE_PGO= RELEASE_LTO=):
# the profile-guided one takes a minute and would replace ./netsim mid-test
before=$(cksum < "$NETSIM")
env -u NETSIM nice make -s install RELEASE_PGO= RELEASE_LTO= DESTDIR="$D" PREFIX=/usr > "$tmp/install.out" 2>&1
check "make install DESTDIR=\$D PREFIX=/usr" test $? -eq 0
check "... leaves the netsim under test as it was ($NETSIM)" test "$(cksum < "$NETSIM")" = "$before"
for f in bin/netsim bin/netsim-plot share/netsim/plot-lib.bash share/man/man1/netsim.1 share/man/man5/netsim-scenario.5 \
         share/bash-completion/completions/netsim share/netsim/scenarios/udp_line_rate.ini \
         share/netsim/scenarios/bench/w1.ini; do
    check "... installs /usr/$f" test -s "$D/usr/$f"
done
check "... every bundled scenario" test "$(ls "$D"/usr/share/netsim/scenarios/*.ini | wc -l)" -eq "$(ls scenarios/*.ini | wc -l)"

# from elsewhere, with the tree out of reach of relative paths
(cd / && "$D/usr/bin/netsim" run "$D/usr/share/netsim/scenarios/udp_line_rate.ini" --set sim.duration=1s --no-db) \
    > "$tmp/run.out" 2>&1
check "the installed netsim runs the installed udp_line_rate.ini" test $? -eq 0
check "... and prints its goodput" grep -q 'Gbit' "$tmp/run.out"
(cd / && "$D/usr/bin/netsim" run "$D/usr/share/netsim/scenarios/udp_line_rate.ini" --set sim.duration=1s -q \
    -o "$tmp/u.db" && "$D/usr/bin/netsim-plot" "$tmp/u.db" -o "$tmp/u.png") > "$tmp/plot.out" 2>&1
check "netsim-plot plots its database from outside the tree" test $? -eq 0 -a -s "$tmp/u.png"
# a sweep goes to the netsim installed beside netsim-plot (NETSIM unset)
(cd / && env -u NETSIM "$D/usr/bin/netsim" sweep "$D/usr/share/netsim/scenarios/udp_line_rate.ini" \
    --set 'sender.cpu_speed=${0.5, 1.0}' --set sim.duration=100ms --set sim.interval=50ms -q -o "$tmp/s.db" \
    && env -u NETSIM PATH=/usr/bin:/bin "$D/usr/bin/netsim-plot" "$tmp/s.db" --kind sweep -o "$tmp/s.png") \
    > "$tmp/splot.out" 2>&1
check "netsim-plot --kind sweep runs the installed netsim plot" test $? -eq 0 -a -s "$tmp/s.png"
"$D/usr/bin/netsim-plot" --help > "$tmp/plothelp.out" 2>&1
check "... and names itself netsim-plot" grep -q '^usage: netsim-plot DB' "$tmp/plothelp.out"

v=$("$D/usr/bin/netsim" --version)
want=$( { [ -e .git ] && git describe --always --dirty 2>/dev/null; } || cat VERSION 2>/dev/null || echo unknown)
check "netsim --version is git describe's ($v)" test "$v" = "netsim $want"

for page in man1/netsim.1 man5/netsim-scenario.5; do
    mandoc -T lint -W warning "$D/usr/share/man/$page" > "$tmp/lint.out" 2>&1
    check "mandoc -T lint -W warning $page: no warnings" test $? -eq 0 -a ! -s "$tmp/lint.out"
    if command -v man > /dev/null; then
        MANWIDTH=80 man --warnings -E UTF-8 -l "$D/usr/share/man/$page" > "$tmp/page.out" 2> "$tmp/man.err"
        check "man -l $page renders without warnings" test $? -eq 0 -a -s "$tmp/page.out" -a ! -s "$tmp/man.err"
    else
        skip "man is not installed (man-db)" "man -l $page"
    fi
done
check "netsim(1) documents every command" bash -c "for c in run sweep report plot merge models keys; do
    grep -q \"^\\.B.* \$c\" '$D/usr/share/man/man1/netsim.1' || exit 1; done"

# complete NAME WORD... : the completion's answer for the last word
complete_words() {
    PATH="$D/usr/bin:$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _netsim
        printf "%s\n" "${COMPREPLY[@]}"' _ "$D/usr/share/bash-completion/completions/netsim" "$@"
}
check "the completion completes netsim sw<TAB> to sweep" test "$(complete_words netsim sw)" = sweep
s=$D/usr/share/netsim/scenarios/udp_line_rate.ini
check "... a key after --set (receiver.rx_ri<TAB>)" \
    test "$(complete_words netsim run "$s" --set receiver.rx_ri)" = receiver.rx_ring_size=
check "... a section of the scenario after --set (rec<TAB>)" test "$(complete_words netsim run "$s" --set rec)" = receiver.
check "... an option (netsim sweep --dr<TAB>)" test "$(complete_words netsim sweep --dr)" = --dry-run
check "... an option of netsim plot (--no-l<TAB>)" test "$(complete_words netsim plot x.db --no-l)" = --no-logx
check "... an app for netsim keys (tcp_i<TAB>)" test "$(complete_words netsim keys tcp_i)" = tcp_iperf3

env -u NETSIM nice make -s uninstall DESTDIR="$D" PREFIX=/usr > "$tmp/uninstall.out" 2>&1
check "make uninstall" test $? -eq 0
left=$(find "$D" ! -type d)
check "... leaves no file behind" test -z "$left"
check "... nor share/netsim" test ! -e "$D/usr/share/netsim"
