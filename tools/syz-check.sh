#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Check the syzkaller descriptions (selftests/syzkaller/vpux.txt) against
# the uapi header they describe, uapi/drm/vpux_accel.h, and the DRM core's
# drm.h of the kernel the driver is built for.
#
#   syz-check.sh [--update-const] [SYZ] [HEADER]
#
# From the syzlang file it takes the ioctls (name, command constant,
# argument direction and struct), the structs (fields, in order, with the
# size and alignment of each syzlang type) and the constants of the flag
# sets, then compiles a small C program against the header that compares,
# for every struct, the C field names in order, sizeof() and every
# offsetof() with the layout the syzlang implies; for every ioctl the
# direction and argument size encoded in its number; and every value of
# SYZ.const (the constants file syzkaller reads) with the header's. It
# also fails when the header has an ioctl, a struct drm_vpux_* or a
# DRM_VPUX_PARAM_* that the description lacks. Every mismatch is named.
#
# --update-const rewrites SYZ.const from the header (what syz-extract
# would write for amd64) instead of checking it.
#
# Exit status: 0 consistent, 1 a mismatch, 2 the check could not run.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
update=0
if [ "${1:-}" = --update-const ]; then
	update=1
	shift
fi
case "${1:-}" in -h|--help)
	sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'
	exit 0 ;;
esac
syz=${1:-$TOP/selftests/syzkaller/vpux.txt}
hdr=${2:-$TOP/uapi/drm/vpux_accel.h}
CC=${CC:-cc}

die() { echo "syz-check: $*" >&2; exit 2; }
[ -f "$syz" ] || die "$syz: no such file"
[ -f "$hdr" ] || die "$hdr: no such file"
# drm.h of the 6.12 kernel (its syncobj structs are newer than libdrm's)
drmdir=
for d in ${DRM_UAPI_DIR:-} /usr/src/linux-headers-6.12*-common/include/uapi/drm \
	 ${KDIR:-/nonexistent}/include/uapi/drm; do
	[ -f "$d/drm.h" ] && { drmdir=$d; break; }
done
[ -n "$drmdir" ] || die "no kernel drm.h (linux-headers-6.12*-common; run make deps, or set DRM_UAPI_DIR)"

tmp=$(mktemp -d)
trap '[ -n "${SYZ_KEEP:-}" ] || rm -rf "$tmp"' EXIT INT TERM
mkdir -p "$tmp/inc/drm"
cp "$hdr" "$tmp/inc/drm/vpux_accel.h"
cp "$drmdir/drm.h" "$tmp/inc/drm/drm.h"
[ -f "$drmdir/drm_mode.h" ] && cp "$drmdir/drm_mode.h" "$tmp/inc/drm/"

# ---- the syzlang side: structs, ioctls, constants -> C checks ----------
awk -v syzname="$(basename "$syz")" -v update="$update" '
function fail(msg) { printf "%s:%d: %s\n", syzname, NR, msg >"/dev/stderr"; err = 1 }
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# size of a syzlang type (0: variable-length array); sets ALIGN
function tsize(t,   inner, n, k, a) {
	t = trim(t)
	if (t ~ /^(const|flags|len|bytesize|proc)\[/) {
		# the base type is the last intN of the brackets
		if (match(t, /int(8|16|32|64)[^,\]]*\]$/)) t = substr(t, RSTART)
		else t = "int64"
		sub(/\]$/, "", t)
	}
	if (t ~ /^int(8|16|32|64)/) {
		n = t; sub(/^int/, "", n); sub(/[^0-9].*/, "", n)
		ALIGN = n / 8; return n / 8
	}
	if (t ~ /^intptr/ || t ~ /^ptr(64)?\[/ || t == "vma") { ALIGN = 8; return 8 }
	if (t ~ /^array\[/) {
		inner = t; sub(/^array\[/, "", inner); sub(/\]$/, "", inner)
		# split "T, N" at the last top-level comma
		k = 0; n = ""
		for (a = length(inner); a > 0; a--) {
			c = substr(inner, a, 1)
			if (c == "]") k++
			else if (c == "[") k--
			else if (c == "," && k == 0) { n = trim(substr(inner, a + 1)); inner = substr(inner, 1, a - 1); break }
		}
		a = tsize(inner)
		if (n ~ /^[0-9]+$/) return a * n
		return 0
	}
	if (t in res) { ALIGN = res[t]; return res[t] }
	if (t in ssize) { ALIGN = salign[t]; return ssize[t] }
	fail("unknown type " t); ALIGN = 1; return 0
}
function cname(s) {
	if (s ~ /^vpux_drm_/) { sub(/^vpux_/, "", s); sub(/_(export|import)$/, "", s) }
	return s
}
/^[ \t]*#/ || /^[ \t]*$/ { next }
/^include / { next }
/^resource / {
	name = $2; sub(/\[.*/, "", name)
	base = $2; sub(/^[^\[]*\[/, "", base); sub(/\].*/, "", base)
	res[name] = base == "fd" ? 4 : base ~ /^int/ ? substr(base, 4) / 8 : 0
	if (!res[name]) fail("resource " name ": base " base)
	next
}
/^[a-z_$0-9]+ = / {		# a flag set
	line = $0; sub(/^[^=]*= */, "", line)
	n = split(line, v, /, */)
	for (i = 1; i <= n; i++) consts[trim(v[i])] = 1
	next
}
/^ioctl\$/ {
	name = $0; sub(/\(.*/, "", name)
	cmd = $0; sub(/.*cmd const\[/, "", cmd); sub(/\].*/, "", cmd)
	arg = $0; sub(/.*arg ptr\[/, "", arg); sub(/\]\).*/, "", arg)
	dir = arg; sub(/,.*/, "", dir); typ = trim(substr(arg, index(arg, ",") + 1))
	ioc[++nioc] = cmd; iocdir[nioc] = dir; ioctype[nioc] = typ; iocname[nioc] = name
	consts[cmd] = 1
	next
}
/^[a-z]/ && /\(/ {		# another syscall: its constants
	line = $0
	while (match(line, /const\[[A-Z_][A-Z0-9_]*/)) {
		consts[substr(line, RSTART + 6, RLENGTH - 6)] = 1
		line = substr(line, RSTART + RLENGTH)
	}
	next
}
/^[a-z_$0-9]+ \{$/ { cur = $1; nf[cur] = 0; order[++nstruct] = cur; next }
/^\}/ {
	# lay the struct out like the C compiler (natural alignment)
	off = 0; al = 1
	for (i = 1; i <= nf[cur]; i++) {
		sz = tsize(ftype[cur, i]); a = ALIGN
		if (off % a) off += a - off % a
		foff[cur, i] = off
		if (sz == 0 && i != nf[cur]) fail(cur "." fname[cur, i] ": variable-length array not last")
		off += sz
		if (a > al) al = a
	}
	if (off % al) off += al - off % al
	ssize[cur] = off; salign[cur] = al
	cur = ""
	next
}
cur != "" {
	f = $1; t = $0; sub(/^[ \t]*[^ \t]+[ \t]+/, "", t); sub(/[ \t]*\((in|out|inout)\)[ \t]*$/, "", t)
	fname[cur, ++nf[cur]] = f; ftype[cur, nf[cur]] = t
	line = t
	while (match(line, /(const|flags)\[[A-Z_][A-Z0-9_]*/)) {
		c = substr(line, RSTART, RLENGTH); sub(/^[a-z]+\[/, "", c); consts[c] = 1
		line = substr(line, RSTART + RLENGTH)
	}
	next
}
{ fail("cannot parse: " $0) }
END {
	print "#include <stddef.h>" >out
	print "#include <stdio.h>" >out
	print "#include <fcntl.h>" >out
	print "#include <sys/ioctl.h>" >out
	print "#include <sys/mman.h>" >out
	print "#include <sys/syscall.h>" >out
	print "#include <drm/vpux_accel.h>" >out
	print "static int bad;" >out
	print "#define MISMATCH(...) do { printf(\"" syzname ": \" __VA_ARGS__); bad = 1; } while (0)" >out
	print "int main(void)\n{" >out
	for (k = 1; k <= nstruct; k++) {
		s = order[k]; c = cname(s)
		printf "\tif (sizeof(struct %s) != %d)\n\t\tMISMATCH(\"struct %s is %%zu bytes in the header, %d in the description (%s)\\n\", sizeof(struct %s));\n", \
			c, ssize[s], c, ssize[s], s, c >out
		for (i = 1; i <= nf[s]; i++)
			printf "\tif (offsetof(struct %s, %s) != %d)\n\t\tMISMATCH(\"struct %s: field %s is at offset %%zu in the header, %d in the description\\n\", offsetof(struct %s, %s));\n", \
				c, fname[s, i], foff[s, i], c, fname[s, i], foff[s, i], c, fname[s, i] >out
		# field names in order, for the header comparison below
		line = c
		for (i = 1; i <= nf[s]; i++) line = line " " fname[s, i]
		print line >fields
	}
	for (k = 1; k <= nioc; k++) {
		d = iocdir[k] == "in" ? "_IOC_WRITE" : iocdir[k] == "out" ? "_IOC_READ" : "(_IOC_READ | _IOC_WRITE)"
		printf "\tif (_IOC_SIZE(%s) != %d)\n\t\tMISMATCH(\"%s: the number encodes %%u argument bytes, %s is %d\\n\", (unsigned int)_IOC_SIZE(%s));\n", \
			ioc[k], ssize[ioctype[k]], ioc[k], ioctype[k], ssize[ioctype[k]], ioc[k] >out
		printf "\tif (_IOC_DIR(%s) != %s)\n\t\tMISMATCH(\"%s: the number encodes direction %%u, the description says ptr[%s]\\n\", (unsigned int)_IOC_DIR(%s));\n", \
			ioc[k], d, ioc[k], iocdir[k], ioc[k] >out
		print iocname[k] >ioctls
	}
	for (c in consts) print c >constnames
	print "\treturn bad;\n}" >out
	exit err
}' out="$tmp/check.c" fields="$tmp/fields" ioctls="$tmp/ioctls" constnames="$tmp/consts" \
	"$syz" || exit 1

# ---- the constants file ------------------------------------------------
const=$syz.const
sort -u "$tmp/consts" >"$tmp/consts.sorted"
for n in __NR_ioctl __NR_mmap __NR_openat; do echo "$n"; done >>"$tmp/consts.sorted"
{
	echo "#include <stdio.h>"
	echo "#include <fcntl.h>"
	echo "#include <sys/ioctl.h>"
	echo "#include <sys/syscall.h>"
	echo "#include <drm/vpux_accel.h>"
	echo "int main(void)\n{"
	while read -r n; do
		printf '\tprintf("%%s = %%llu\\n", "%s", (unsigned long long)(%s));\n' "$n" "$n"
	done <"$tmp/consts.sorted"
	echo "\treturn 0;\n}"
} >"$tmp/consts.c"
if ! $CC -std=gnu11 -Wall -Werror -D__user= -I"$tmp/inc" -o "$tmp/consts" "$tmp/consts.c" 2>"$tmp/cc.log"; then
	sed -n 's/.*error: //p' "$tmp/cc.log" | sort -u | sed "s|^|$(basename "$syz"): constant not in the header: |" | head -20
	echo "syz-check: FAILED"
	exit 1
fi
"$tmp/consts" | LC_ALL=C sort >"$tmp/consts.now"
if [ $update = 1 ]; then
	{
		echo "# Code generated by tools/syz-check.sh --update-const from uapi/drm/vpux_accel.h. DO NOT EDIT."
		echo "arches = amd64"
		cat "$tmp/consts.now"
	} >"$const"
	echo "syz-check: wrote $const"
	exit 0
fi

status=0
if [ ! -f "$const" ]; then
	echo "$(basename "$const"): missing (tools/syz-check.sh --update-const writes it)"
	status=1
else
	grep -v '^#' "$const" | grep -v '^arches' | LC_ALL=C sort >"$tmp/consts.file"
	# NAME = VALUE lines that differ, both ways
	LC_ALL=C join -j1 -a1 -a2 -e MISSING -o 0,1.3,2.3 "$tmp/consts.now" "$tmp/consts.file" |
		awk -v f="$(basename "$const")" '$2 != $3 {
			if ($3 == "MISSING") printf "%s: %s missing (the header has %s)\n", f, $1, $2
			else if ($2 == "MISSING") printf "%s: %s is no constant of the description\n", f, $1
			else printf "%s: %s = %s, the header has %s\n", f, $1, $3, $2
		}' >"$tmp/constdiff"
	if [ -s "$tmp/constdiff" ]; then
		cat "$tmp/constdiff"
		status=1
	fi
fi

# ---- sizes, offsets, ioctl numbers --------------------------------------
if ! $CC -std=gnu11 -Wall -Werror -D__user= -I"$tmp/inc" -o "$tmp/check" "$tmp/check.c" 2>"$tmp/cc.log"; then
	grep -E 'error' "$tmp/cc.log" | sed 's/^[^:]*:[0-9]*:[0-9]*: //' | sort -u |
		sed "s|^|$(basename "$syz"): |" | head -20
	echo "syz-check: FAILED"
	exit 1
fi
"$tmp/check" || status=1

# ---- field names in order, against the header's declarations -----------
members() {	# FILE STRUCT: the member names of struct STRUCT in order
	awk -v s="$2" '
		$0 ~ "^struct " s " \\{" { on = 1; next }
		on && /^\};/ { exit }
		on {
			sub(/\/\*.*\*\//, "")
			if ($0 ~ /^[ \t]*(\/\*|\*)/) next
			if (match($0, /[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?;/)) {
				m = substr($0, RSTART, RLENGTH); sub(/[\[;].*/, "", m); printf " %s", m
			}
		}' "$1"
}
while read -r c names; do
	case $c in drm_vpux_*) f=$tmp/inc/drm/vpux_accel.h ;; *) f=$tmp/inc/drm/drm.h ;; esac
	h=$(members "$f" "$c")
	if [ "$h" != " $names" ]; then
		echo "$(basename "$syz"): struct $c: fields$h in the header, $names in the description"
		status=1
	fi
done <"$tmp/fields"

# ---- completeness: every ioctl, struct and parameter of the header -----
for i in $(sed -n 's/^#define \(DRM_IOCTL_VPUX_[A-Z0-9_]*\).*/\1/p' "$hdr"); do
	grep -qx "ioctl\$$i" "$tmp/ioctls" ||
		{ echo "$(basename "$syz"): $i (in the header) is not described"; status=1; }
done
for s in $(sed -n 's/^struct \(drm_vpux_[a-z0-9_]*\) {.*/\1/p' "$hdr"); do
	grep -q "^$s " "$tmp/fields" ||
		{ echo "$(basename "$syz"): struct $s (in the header) is not described"; status=1; }
done
for p in $(sed -n 's/^#define \(DRM_VPUX_PARAM_[A-Z0-9_]*\).*/\1/p' "$hdr" | grep -v '_COUNT$'); do
	grep -qx "$p" "$tmp/consts.sorted" ||
		{ echo "$(basename "$syz"): $p (in the header) is missing from vpux_param"; status=1; }
done

if [ $status = 0 ]; then
	echo "syz-check: $(wc -l <"$tmp/ioctls") ioctls, $(wc -l <"$tmp/fields") structs and $(wc -l <"$tmp/consts.now") constants of $(basename "$syz") match $(basename "$hdr")"
else
	echo "syz-check: FAILED"
fi
exit $status
