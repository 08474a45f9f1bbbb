#!/usr/bin/env bash
# bench/awk.sh: gatehouse's awk against gawk on a large file, for the
# programs agents run most. Both read the same file on tmpfs; gatehouse
# runs each line through `gatehouse exec` in a workspace whose host mount
# holds the file, so the figures include the gate, the op door and the
# shell. Prints the median seconds of each and their ratio.
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

# Each is the line after "awk "; lines that print every record end in
# tail, so neither side is measured writing to a terminal or a file.
lines=(
	"'{s+=\$3} END{print s}' big.txt"
	"-F, '{print \$2}' big.txt | tail -1"
	"'{c[\$1]++} END{for(k in c) n++; print n}' big.txt"
	"'{gsub(/a/, \"A\")} END{print NR}' big.txt"
	"'{gsub(/a/, \"A\"); print}' big.txt | tail -1"
	"'/charlie/{n++} END{print n}' big.txt"
	"'{print \$2, \$1}' big.txt | tail -1"
	"'length > 60 {n++} END{print n+0}' big.txt"
	"'NR%1000==0{printf \"%s %d\\n\", \$2, \$3}' big.txt"
	"'{print}' big.txt | tail -1"
)

median() { sort -n | gawk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

time_it() { # seconds of one run of "$@", output discarded
	local start end
	start=$(date +%s.%N)
	"$@" >/dev/null
	end=$(date +%s.%N)
	gawk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f\n", b-a}'
}

printf '\n%-58s %7s %11s %6s\n' "line" "gawk s" "gatehouse s" "ratio"
for p in "${lines[@]}"; do
	line="awk $p"
	g=$(for _ in $(seq "$RUNS"); do time_it bash -c "cd '$dir/data' && g${line}"; done | median)
	h=$(for _ in $(seq "$RUNS"); do time_it "$gh" exec -w "$dir/workspace.yaml" -- "$line"; done | median)
	# The outputs must agree (the first 1000 lines, order kept).
	if ! cmp -s <(cd "$dir/data" && bash -c "g$line" | head -1000) <("$gh" exec -w "$dir/workspace.yaml" -- "$line" | head -1000); then
		echo "output differs for: $line" >&2
	fi
	printf '%-58s %7s %11s %6s\n' "${p% big.txt*}" "$g" "$h" "$(gawk -v g="$g" -v h="$h" 'BEGIN{printf "%.2fx", h/g}')"
done
