#!/usr/bin/env bash
# bench/awk.sh: gatehouse's awk against gawk on a large file, for the
# programs agents run most. Both read the same file on tmpfs; gatehouse
# runs each line through `gatehouse exec` in a workspace whose host mount
# holds the file, so the figures include the gate, the op door and the
# shell. Prints the median CPU and wall seconds of each and their ratios.
#
#   bench/awk.sh                 # 50 MB, 3 runs each
#   MB=10 RUNS=5 bench/awk.sh
set -euo pipefail

MB=${MB:-50}
RUNS=${RUNS:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${BENCH_CACHE:-$here/.cache}
mkdir -p "$cache"

dir=$(mktemp -d "${TMPDIR_BENCH:-/dev/shm}/gatehouse-awk.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/data"

command -v gawk >/dev/null || { echo "gawk is needed for the comparison" >&2; exit 1; }
echo "== machine: $(nproc) cpus, $(gawk --version | head -1 | cut -d, -f1), $(go version | cut -d' ' -f3)"

echo "== building gatehouse"
(cd "$repo" && go build -o "$cache/gatehouse" .)
gh=$cache/gatehouse

echo "== making a ${MB} MB file"
# Lines like a log or a CSV export: a key with few values, a word, numbers.
gawk -v mb="$MB" 'BEGIN {
	srand(42)
	split("alpha bravo charlie delta echo foxtrot golf hotel india juliet", w)
	target = mb * 1048576
	while (size < target) {
		line = sprintf("k%03d %s %d %.3f,%s,%d user%d@example.com", int(rand()*500), w[int(rand()*10)+1], int(rand()*100000), rand()*1000, w[int(rand()*10)+1], NR, int(rand()*5000))
		print line
		size += length(line) + 1
		NR++
	}
}' >"$dir/data/big.txt"
ls -l "$dir/data/big.txt" | gawk '{print "   " $5 " bytes"}'

cat >"$dir/workspace.yaml" <<YAML
mounts:
  /data:
    source: host:data
profiles:
  default: bench
  bench:
    cwd: /data
YAML
export GATEHOUSE_DB=$dir/ledger.db

# Each is the line after "awk "; lines that print every record write to
# /dev/null, so neither side is measured writing to a terminal or a file.
lines=(
	"'{s+=\$3} END{print s}' big.txt"
	"-F, '{print \$2}' big.txt >/dev/null"
	"'{c[\$1]++} END{for(k in c) n++; print n}' big.txt"
	"'{gsub(/a/, \"A\")} END{print NR}' big.txt"
	"'{gsub(/a/, \"A\"); print}' big.txt >/dev/null"
	"'/charlie/{n++} END{print n}' big.txt"
	"'{print \$2, \$1}' big.txt >/dev/null"
	"'length > 60 {n++} END{print n+0}' big.txt"
	"'NR%1000==0{printf \"%s %d\\n\", \$2, \$3}' big.txt"
	"'{print}' big.txt >/dev/null"
)

median() { sort -n | gawk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

# run_it prints "CPU WALL" seconds for one run of "$@" (output discarded):
# CPU is user+system of the process and its children, which a busy
# machine disturbs far less than the wall clock.
run_it() {
	local TIMEFORMAT='%U %S %R' t
	t=$( { time "$@" >/dev/null 2>&1; } 2>&1 )
	gawk -v t="$t" 'BEGIN{split(t, f, " "); printf "%.3f %.3f\n", f[1]+f[2], f[3]}'
}

printf '\n%-58s %7s %7s %6s %7s %7s %6s\n' "line" "gawk" "gh" "ratio" "gawk" "gh" "ratio"
printf '%-58s %22s %22s\n' "" "CPU seconds" "wall seconds"
for p in "${lines[@]}"; do
	line="awk $p"
	gt=() ht=()
	for _ in $(seq "$RUNS"); do
		gt+=("$(run_it bash -c "cd '$dir/data' && g${line}")")
		ht+=("$(run_it "$gh" exec -w "$dir/workspace.yaml" -- "$line")")
	done
	gc=$(printf '%s\n' "${gt[@]}" | cut -d' ' -f1 | median); gw=$(printf '%s\n' "${gt[@]}" | cut -d' ' -f2 | median)
	hc=$(printf '%s\n' "${ht[@]}" | cut -d' ' -f1 | median); hw=$(printf '%s\n' "${ht[@]}" | cut -d' ' -f2 | median)
	# The outputs must agree (the first 1000 lines, order kept).
	if ! cmp -s <(cd "$dir/data" && bash -c "g$line" | head -1000) <("$gh" exec -w "$dir/workspace.yaml" -- "$line" | head -1000); then
		echo "output differs for: $line" >&2
	fi
	printf '%-58s %7s %7s %6s %7s %7s %6s\n' "${p% big.txt*}" "$gc" "$hc" \
		"$(gawk -v g="$gc" -v h="$hc" 'BEGIN{printf "%.2fx", h/g}')" "$gw" "$hw" \
		"$(gawk -v g="$gw" -v h="$hw" 'BEGIN{printf "%.2fx", h/g}')"
done
echo
echo "gatehouse's figures include its start (workspace, ledger, session): $(run_it "$gh" exec -w "$dir/workspace.yaml" -- true | cut -d' ' -f1) s CPU for the line 'true'."
