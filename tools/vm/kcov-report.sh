#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Line coverage of vpux_accel.ko from the PCs vpux_fuzz --kcov recorded.
#
#   kcov-report.sh [-o DETAIL] KO FILE
#
# KO is the module the PCs come from, built with debug info (check-debug.sh
# builds it with KCFLAGS=-g); FILE holds vpux_fuzz's "# kcov: section NAME
# ADDR" and "# kcov-pc PC..." lines (its TAP output or its --kcov FILE).
#
# The kernel was built with KCOV, so every basic block of the module calls
# __sanitizer_cov_trace_pc and KCOV records that call's return address.
# The denominator is every such call site in the module's text (objdump
# -dr; the few blocks that end in a tail call, jmp, are left out: KCOV
# records their caller's return address), mapped to a source line with addr2line (the call instruction's
# line, so inlined code counts where it is written); a line is reached when
# the PC of any of its call sites was recorded. PCs only the driver's
# workers reached ("# kcov-rpc", remote coverage) are also counted apart. Prints one line per
# directory of the tree ("kcov: kmd/ 812/1190 lines (68%)"), kernel
# headers (code inlined from them) apart, and a total over the tree; with
# -o, writes the per-file figures and the unreached lines to DETAIL.
#
# Exit status: 0 also when FILE holds no coverage (a kernel without KCOV);
# 1 when the tool cannot work (no objdump/addr2line, no debug info, ...).
set -eu

detail=
if [ "${1:-}" = -o ]; then
	detail=$2
	shift 2
fi
ko=${1:?usage: kcov-report.sh [-o DETAIL] KO FILE}
data=${2:?usage: kcov-report.sh [-o DETAIL] KO FILE}

die() { echo "kcov-report: $*" >&2; exit 1; }

for t in objdump addr2line readelf; do
	command -v "$t" >/dev/null 2>&1 || die "$t not found (binutils)"
done
[ -f "$ko" ] || die "$ko: no such module"
[ -f "$data" ] || die "$data: no such file"
readelf -S "$ko" | grep -q '\.debug_line' || die "$ko has no debug info (build with KCFLAGS=-g)"

if ! grep -q '^# kcov-pc ' "$data"; then
	why=$(sed -n 's/^# kcov: no coverage: //p' "$data" | head -1)
	echo "kcov: no coverage recorded${why:+ ($why)}"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
prefix=$(cd "$(dirname "$ko")" && pwd)/

# Text sections the guest reported, with their size in the module.
readelf -SW "$ko" | sed 's/^ *\[ *[0-9]*\] *//' |
	awk '$2 == "PROGBITS" && $0 ~ / AX / { print $1, $5 }' >"$tmp/ko-sections"
sed -n 's/^# kcov: section \([^ ]*\) 0x\([0-9a-f]*\)$/\1 \2/p' "$data" |
	awk 'NR == FNR { size[$1] = $2; next } ($1 in size) { print $1, $2, size[$1] }' \
	"$tmp/ko-sections" - >"$tmp/sections"
[ -s "$tmp/sections" ] || die "$data: no text section of $ko among the reported ones"

# Call sites: "SECTION RETURN-OFFSET FILE:LINE".
: >"$tmp/sites"
while read -r sect _ _; do
	objdump -dr -j "$sect" "$ko" | awk -v sect="$sect" '
		function hex(s,  i, v) {
			v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		/^ *[0-9a-f]+:\t/ { a = $1; gsub(/[ :]/, "", a); insn = $3 }
		/R_X86_64_(PLT|PC)32\t__sanitizer_cov_trace_pc/ {
			# a 5-byte call: the return address is a + 5; a tail
			# call (jmp) records the return address in its caller
			# instead, so those few blocks are not counted
			if (insn ~ /^call/)
				printf "%s %x %x\n", sect, hex(a) + 5, hex(a) + 4
		}' FS='\t' >"$tmp/calls"
	[ -s "$tmp/calls" ] || continue
	awk '{ print $3 }' "$tmp/calls" | addr2line -e "$ko" -j "$sect" >"$tmp/lines"
	paste -d ' ' "$tmp/calls" "$tmp/lines" | awk '{ print $1, $2, $4 }' >>"$tmp/sites"
done <"$tmp/sections"
[ -s "$tmp/sites" ] || die "$ko: no __sanitizer_cov_trace_pc call (not built against a KCOV kernel?)"

# Recorded PCs as "SECTION OFFSET", and those only the driver's workers
# reached (remote coverage) again as "SECTION OFFSET R".
{ sed -n 's/^# kcov-pc //p' "$data" | tr ' ' '\n'
  sed -n 's/^# kcov-rpc //p' "$data" | tr ' ' '\n' | sed 's/$/ R/'; } | sed '/^ *R*$/d' | awk '
	function hex(s,  i, v) {
		v = 0; s = tolower(s)
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	function pad(s) { while (length(s) < 16) s = "0" s; return s }
	# exact for 64-bit values as long as the difference fits 53 bits
	function diff(a, b) {
		a = pad(a); b = pad(b)
		return (hex(substr(a, 1, 8)) - hex(substr(b, 1, 8))) * 4294967296 + \
			hex(substr(a, 9, 8)) - hex(substr(b, 9, 8))
	}
	NR == FNR { name[++n] = $1; base[n] = $2; size[n] = hex($3); next }
	{
		for (i = 1; i <= n; i++) {
			off = diff($1, base[i])
			if (off >= 0 && off < size[i]) { printf "%s %x %s\n", name[i], off, $2; break }
		}
		if (i > n) outside++
	}
	END { print outside + 0 >"/dev/stderr" }' "$tmp/sections" - >"$tmp/reached" 2>"$tmp/outside"

awk -v prefix="$prefix" -v detail="${detail:-/dev/null}" -v outside="$(cat "$tmp/outside")" '
	function norm(f) {
		sub(/ \(discriminator [0-9]+\)$/, "", f)
		while (sub(/\/\.\//, "/", f)) ;
		if (index(f, prefix) == 1)
			return substr(f, length(prefix) + 1)
		sub(/.*\/linux-source-[^\/]*\//, "", f)
		return "(kernel)/" f
	}
	NR == FNR && $3 == "R" { ronly[$1 " " $2] = 1; next }
	NR == FNR { hit[$1 " " $2] = 1; npc++; next }
	{
		line = norm($3)
		if (line ~ /^\?/ || line ~ /:0$/ || line ~ /:\?$/) { unknown++; next }
		sites++
		key = $1 " " $2
		if (key in hit) { found++; reached[line] = 1 }
		if ((key in hit) && !(key in ronly)) treached[line] = 1
		lines[line] = 1
	}
	END {
		for (l in lines) {
			f = l; sub(/:[0-9]+$/, "", f)
			d = f; sub(/\/.*/, "", d)
			if (d != "(kernel)") d = d "/"
			ftot[f]++; dtot[d]++
			if (l in treached) dtask[d]++
			if (l in reached) { fhit[f]++; dhit[d]++ }
			else { n = l; sub(/.*:/, "", n); print f, n >missf }
		}
		# vpux_accel.ko: the model is vpux_sim.ko, not counted here
		split("kmd/ firmware/ portability/", order, " ")
		for (i = 1; i <= 3; i++) shown[order[i]] = 1
		i = 3
		for (d in dtot) if (!(d in shown) && d != "(kernel)") order[++i] = d
		for (k = 1; k <= i; k++) {
			d = order[k]
			t = dtot[d] + 0; h = dhit[d] + 0
			printf "kcov: %-13s %5d/%-5d lines (%d%%)\n", d, h, t, t ? 100 * h / t : 0
			th += h; tt += t; tk += dtask[d]
			task = task sprintf(" %s %d,", d, dtask[d])
		}
		printf "kcov: %-13s %5d/%-5d lines (%d%%)\n", "total", th, tt, tt ? 100 * th / tt : 0
		printf "kcov: in the fuzzer'"'"'s own calls only (no remote coverage):%s total %d lines (%d%%)\n", \
			task, tk, tt ? 100 * tk / tt : 0
		d = "(kernel)"
		if (d in dtot)
			printf "kcov: (inlined from kernel headers: %d/%d lines, not in the total)\n", \
				dhit[d], dtot[d]
		printf "kcov: %d of %d call sites reached; %d PCs recorded, %d outside the module text\n", \
			found, sites, npc, outside
		if (found < npc)
			printf "kcov: %d recorded PCs are no call site (after a call to a block ending in a tail call)\n", npc - found
		for (f in ftot)
			print f, fhit[f] + 0, ftot[f] >filesf
	}' missf="$tmp/miss" filesf="$tmp/files" "$tmp/reached" "$tmp/sites"
if [ -n "$detail" ]; then
	# per file, the tree first, with the unreached lines in order
	: >>"$tmp/miss"
	{
		echo "# per file: reached/instrumented lines, then the unreached lines"
		LC_ALL=C sort -k1,1 -k2,2n "$tmp/miss" | awk '
			NR == FNR { miss[$1] = miss[$1] " " $2; next }
			{ printf "%-50s %5d/%-5d%s\n", $1, $2, $3, miss[$1] }' - "$tmp/files" |
			awk '{ print ($1 ~ /^\(kernel/), $0 }' | LC_ALL=C sort -k1,1n -k2,2 | cut -d' ' -f2-
	} >"$detail"
fi
exit 0
