#!/bin/sh
# Prints the Linux tree the differential check reads: KSRC if given (a
# tree where it lies, never copied), else Debian's linux-source-6.1,
# unpacked once into DIR (only the files extract.py reads; the package is
# installed by `make deps` when missing).
#   tests/kdiff/ksrc.sh DIR [KSRC]
set -eu
dir=$1 ksrc=${2:-}
if [ -n "$ksrc" ]; then
    [ -f "$ksrc/Makefile" ] || { echo "check-kdiff: KSRC=$ksrc is not a Linux tree (no Makefile)" >&2; exit 1; }
    echo "$ksrc"
    exit 0
fi
tarball=/usr/src/linux-source-6.1.tar.xz
if [ ! -f "$tarball" ]; then
    make --no-print-directory deps DEB_PKGS=linux-source-6.1 >&2
    [ -f "$tarball" ] || { echo "check-kdiff: no $tarball after installing linux-source-6.1" >&2; exit 1; }
fi
tree=$dir/linux-source-6.1
stamp=$dir/.unpacked
if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
    rm -rf "$tree"
    mkdir -p "$dir"
    files=$(python3 -c 'import sys; sys.path.insert(0, "tests/kdiff"); import extract; print(" ".join(sorted({"linux-source-6.1/" + p for g in extract.GROUPS.values() for p, _, _ in g} | {"linux-source-6.1/Makefile"})))')
    echo "check-kdiff: unpacking what it reads from $tarball" >&2
    # shellcheck disable=SC2086
    tar -xJf "$tarball" -C "$dir" $files
    touch "$stamp"
fi
echo "$tree"
