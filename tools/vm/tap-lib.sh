# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by the VM's shell tests (split-check.sh, headed-check.sh): TAP
# points and the accel nodes. Call tap_end last: the plan and the status.
n=0 failed=0

point() {	# point STATUS NAME: one test point
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

nodes() { ls /dev/accel/accel* 2>/dev/null | wc -l; }

settle() {	# settle N: wait up to 10 s for N accel nodes (no udev here)
	i=0
	while [ "$(nodes)" -ne "$1" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

tap_end() {
	echo "1..$n"
	[ $failed -eq 0 ]
}
