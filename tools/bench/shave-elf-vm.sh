#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR MIT
#
# bench-shave-elf's figure from the VM (make bench-vm): guest
# instructions per second of a SHAVE core inside vpux_sim.ko, from
# vpux-run --json of examples/elf_softmax.vpux through /dev/accel. The
# longest SHAVE op is the ELF softmax_f kernel; its device cycles are the
# launch (VPUX_SHAVE_CYCLES_ELF_LAUNCH, 400) plus one per instruction
# (Documentation/shave-kernels.rst). Dividing its instructions by the
# request's median latency gives a lower bound: the latency also holds
# the submission, the two DMA ops and the wake-ups.
# Usage: shave-elf-vm.sh BENCH-VM.TXT
set -u
line=$(grep -E '^\{"loadable":"[^"]*elf_softmax\.vpux"' "$1" | tail -1)
if [ -z "$line" ]; then
	echo "bench-shave-elf: mips_vm=? (no elf_softmax run in $1)"
	exit 0
fi
echo "$line" | awk '{
	lat = 0; max = 0
	if (match($0, /"latency_us_median":[0-9.]+/))
		lat = substr($0, RSTART + 20, RLENGTH - 20) + 0
	s = $0
	while (match(s, /"engine":"shave","index":[0-9]+,"cycles":[0-9]+/)) {
		m = substr(s, RSTART, RLENGTH)
		sub(/.*"cycles":/, "", m)
		if (m + 0 > max)
			max = m + 0
		s = substr(s, RSTART + RLENGTH)
	}
	if (lat > 0 && max > 400)
		printf "bench-shave-elf: mips_vm=%.1f (%d instructions, request median %.0f us; a lower bound)\n", (max - 400) / lat, max - 400, lat
	else
		print "bench-shave-elf: mips_vm=? (no SHAVE op cycles or latency)"
}'
