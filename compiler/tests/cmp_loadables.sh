#!/bin/sh
# cmp_loadables.sh OLD_VPUX_ONNX NEW_VPUX_ONNX [MODEL.onnx...]
# Compiles each model (default: every .onnx under compiler/models) with
# both binaries -- one loadable or a recipe directory, the vpux-asm text
# and the --report output -- into the same path, and compares them byte
# for byte: a refactoring of the compiler that must not change its
# output (e.g. a build of main against a branch's). Exit 1 if any differ.
old=$1; new=$2; shift 2
[ $# -gt 0 ] || set -- $(find "$(dirname "$0")/../models" -name '*.onnx' | sort)
tmp=$(mktemp -d); fail=0; n=0
for m in "$@"; do
  n=$((n+1))
  extra=""
  case "$m" in *dyn_mlp*) extra="--symbol-bounds tokens=1..8";; esac
  for side in old new; do
    eval bin=\$$side
    rm -rf $tmp/w; mkdir -p $tmp/w
    "$bin" compile "$m" -o $tmp/w/out --vasm $tmp/w/vasm --report $extra >$tmp/w/log 2>&1
    echo "rc=$?" >>$tmp/w/log
    # the layout pass's report lines (layout.c) are new: not compared
    grep -v '^layouts\{0,1\}[: ]' $tmp/w/log >$tmp/w/log2; mv $tmp/w/log2 $tmp/w/log
    rm -rf $tmp/$side; mv $tmp/w $tmp/$side
  done
  if diff -r $tmp/old $tmp/new >/dev/null; then
    echo "same  $m ($(tail -1 $tmp/new/log); $(ls $tmp/new/out 2>/dev/null | wc -l) recipe files)"
  else
    echo "DIFF  $m"; diff -r $tmp/old $tmp/new | head -5; fail=$((fail+1))
  fi
done
echo "$n models, $fail differ"; rm -rf $tmp; [ $fail = 0 ]
