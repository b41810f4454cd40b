#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The patch demonstration's second tree (docs/kernel-source.md, "Test your
# patch"): a copy of what the module build reads of the Linux tree TREE
# (its Makefile and net/ipv4/) into DIR, with one change to the source of
# net/ipv4/tcp_cubic.c: beta's default 717 -> 819 (0.7 -> 0.8 of the
# window kept after a loss). Checks that the copy differs from TREE in
# that one line and nowhere else, and prints DIR.
#   tests/ksrc/patch-tree.sh TREE DIR
set -euo pipefail
tree=$1 dir=$2
f=net/ipv4/tcp_cubic.c
from='static int beta __read_mostly = 717;'
to='static int beta __read_mostly = 819;'
grep -qF "$from" "$tree/$f" || { echo "patch-tree: no '$from' in $tree/$f" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir/net"
cp -p "$tree/Makefile" "$dir/"
cp -rp "$tree/net/ipv4" "$dir/net/"
sed -i "s/^$from/$to/" "$dir/$f"
# exactly one line of one file changed
d=$(diff -r "$tree/net/ipv4" "$dir/net/ipv4" || true)
if [ "$(printf '%s\n' "$d" | grep -c '^[<>]')" -ne 2 ] || ! printf '%s\n' "$d" | grep -qF "> $to"; then
    echo "patch-tree: the copy differs from $tree by more or less than beta's line:" >&2
    printf '%s\n' "$d" >&2
    exit 1
fi
echo "patch-tree: $dir is $tree with $f's beta 717 -> 819" >&2
echo "$dir"
