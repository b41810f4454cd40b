#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Unpacks from Debian's linux-source-6.1 only what the module build reads
# (the Makefile, net/ipv4/tcp_*.[ch]) into DIR, once, checks that each
# congestion-control module's file there is byte for byte the tarball's
# (sha256), and prints the tree. The package is installed by CI, not by
# `make deps`: a user who never builds kernel modules should not pay its
# 140 MB.
#   tests/ksrc/debian.sh DIR
set -euo pipefail
dir=$1
tarball=/usr/src/linux-source-6.1.tar.xz
[ -f "$tarball" ] || { echo "check-ksrc: no $tarball (apt-get install linux-source-6.1)" >&2; exit 1; }
tree=$dir/linux-source-6.1
stamp=$dir/.unpacked
if [ ! -f "$stamp" ] || [ "$tarball" -nt "$stamp" ]; then
    rm -rf "$tree"
    mkdir -p "$dir"
    echo "check-ksrc: unpacking the Makefile and net/ipv4/tcp_*.[ch] of $tarball" >&2
    tar -xJf "$tarball" -C "$dir" --wildcards linux-source-6.1/Makefile 'linux-source-6.1/net/ipv4/tcp_*.[ch]'
    touch "$stamp"
fi
mods="bic bbr cdg cubic dctcp highspeed htcp hybla illinois lp nv scalable vegas veno westwood yeah"
paths=$(for m in $mods; do echo "linux-source-6.1/net/ipv4/tcp_$m.c"; done)
# one pass over the tarball for the 16 files' sums
# shellcheck disable=SC2086
tar -xJf "$tarball" --to-command='printf "%s  %s\n" "$(sha256sum | cut -d" " -f1)" "$TAR_FILENAME"' $paths \
    > "$dir/tarball.sha256"
(cd "$dir" && sha256sum --quiet -c tarball.sha256) >&2 ||
    { echo "check-ksrc: a module's file differs from the tarball's" >&2; exit 1; }
echo "check-ksrc: the 16 modules' files are the tarball's (sha256, $dir/tarball.sha256)" >&2
echo "$tree"
