#!/bin/sh
# SPDX-License-Identifier: MIT
# timed-driver.sh DRIVER [DRIVER-ARGUMENT...]: run one of automake's test
# drivers (tap-driver.sh, test-driver) with its arguments, then add the
# test's wall-clock time, in seconds, to the .trs file the driver wrote:
#
#   :duration-seconds: 12.34
#
# automake's parallel harness records no durations; this line is what
# tests/integration/budgets.test holds against tests/integration/budgets.txt
# and what .ci/run ranks the slowest test files by. The harness ignores
# metadata it does not know (automake manual, "Log files generation and
# test results recording"). The driver's exit status is kept.
trs=
prev=
for a; do
	[ "$a" = -- ] && break
	[ "$prev" = --trs-file ] && trs=$a
	prev=$a
done

# now: seconds since the epoch, with nanoseconds where date has %N
now() {
	_t=$(date +%s.%N)
	case $_t in *N) date +%s ;; *) echo "$_t" ;; esac
}

t0=$(now)
"$@"
rc=$?
t1=$(now)
if [ -n "$trs" ] && [ -f "$trs" ]; then
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf ":duration-seconds: %.2f\n", b - a }' >>"$trs"
fi
exit $rc
