#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make stress: the long sweeps that make check runs bounded, on each kernel
# in $KERNELS: the reload loop, the concurrency storm and the fuzzer, each
# sized by STRESS_RELOAD_ROUNDS, STRESS_STORM_SECONDS, STRESS_FUZZ_CALLS and
# STRESS_FUZZ_SEED. The cases and their judging are those of make check.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s KDIR_FALLBACK=vm all || exit 1
env="RELOAD_ROUNDS=${STRESS_RELOAD_ROUNDS:-500}"
env+=",STORM_SECONDS=${STRESS_STORM_SECONDS:-600}"
env+=",FUZZ_CALLS=${STRESS_FUZZ_CALLS:-1000000}"
env+=",FUZZ_SEED=${STRESS_FUZZ_SEED:-$RANDOM},CASE_TIMEOUT=7200"
echo "stress: $env" >&2
rc=0
for k in ${KERNELS:-6.1 6.12}; do
	PKSTEST_ENV=$env VM_TIMEOUT=30000 tests/vm/run-vm.sh "$k" pks \
		"$top/build/stress-$k" reload-loop concurrency fuzz |
		tee "$top/build/stress-$k.verdict"
	tests/vm/verdict-ok.sh "$top/build/stress-$k.verdict" \
		reload-loop concurrency fuzz || rc=1
done
exit $rc
