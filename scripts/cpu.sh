#!/bin/bash
# cpu.sh NAME CMD...: runs CMD in a fresh cpuacct cgroup; prints NAME, CPU seconds of the whole
# cgroup (every process it started, sandboxed workers included) and wall seconds.
name=$1; shift
cg=/sys/fs/cgroup/cpuacct/bench-$name-$$
mkdir "$cg"
t0=$(date +%s.%N)
bash -c 'echo $$ > "$0/cgroup.procs"; exec "$@"' "$cg" "$@"
t1=$(date +%s.%N)
ns=$(cat "$cg/cpuacct.usage")
echo $$ > /sys/fs/cgroup/cpuacct/cgroup.procs
rmdir "$cg" 2>/dev/null || true
printf '%s cpu=%.2f wall=%.2f\n' "$name" "$(echo "$ns/1000000000" | bc -l)" "$(echo "$t1-$t0" | bc -l)"
