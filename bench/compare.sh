#!/usr/bin/env bash
# bench/compare.sh: G-14's comparison of gatehouse with GNU bash + coreutils
# and with just-bash, plus the ask round trip, 1,000 concurrent sessions and
# the micro-benchmarks, each checked against its budget. See bench/README.md.
#
#   bench/compare.sh                   # N=100000, the default run (~5 min on 2 cores)
#   N=10000 bench/compare.sh           # a smaller tree
#   SCALE_NS="10000 1000000" bench/compare.sh
set -euo pipefail

N=${N:-100000}                   # files in the tree of the main comparison
SCALE_NS=${SCALE_NS-10000}       # further tree sizes, for how cost grows with N
RULES_SCALE=${RULES_SCALE-"500 5000"}  # rule counts for how the rules' cost grows (at N)
REPEAT=${REPEAT:-31}             # runs of each line per system (medians; overheads pair runs of a round)
JB_REPEAT=${JB_REPEAT:-3}        # runs in just-bash, whose find line takes ~25 s at N=100000
JB_MAX_N=${JB_MAX_N:-100000}     # larger trees leave just-bash out (1M files: minutes per run)
JUST_BASH=${JUST_BASH:-1}        # 0 leaves just-bash out
JUST_BASH_VERSION=${JUST_BASH_VERSION:-}   # default: the registry's latest
SESSIONS=${SESSIONS:-1000}       # concurrent sessions in one process
MICRO=${MICRO:-1}                # 0 skips the go test micro-benchmarks
MICRO_COUNT=${MICRO_COUNT:-3}    # runs of each micro-benchmark (medians are shown)
ASK_TRIPS=${ASK_TRIPS:-300}      # ask round trips measured
HOST=${HOST:-1}                  # 0 skips the host-mount comparison (whole processes)
HOST_NS=${HOST_NS-"20000 100000"}  # tree sizes of the host-mount comparison
HOST_REPEAT=${HOST_REPEAT:-11}   # runs of each host-mount line per system (medians)
STARTUP_REPEAT=${STARTUP_REPEAT:-31}  # starts of exec -- true and bash -c true (with HOST=1)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
cache=${BENCH_CACHE:-$here/.cache}
mkdir -p "$cache"
cd "$repo"

say() { printf '\n== %s\n' "$*"; }

# The host tree lives on tmpfs, so GNU reads memory as gatehouse does.
if [[ -z ${TREE_DIR:-} ]]; then
	if [[ -d /dev/shm && -w /dev/shm ]]; then
		TREE_DIR=$(mktemp -d /dev/shm/gatehouse-bench.XXXXXX)
	else
		TREE_DIR=$(mktemp -d)
	fi
	trap 'rm -rf "$TREE_DIR"' EXIT
fi

say "machine"
echo "cpus: $(nproc)  model: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)  load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$(go version)  $(bash --version | head -1)"
echo "tree on: $(df -h --output=fstype,target "$TREE_DIR" | tail -1)"

say "building ghbench"
go build -o "$cache/ghbench" ./bench/cmd/ghbench
ghbench=$cache/ghbench

# just-bash comes from npm into the cache, once; without node or npm, or
# if the install fails, the comparison goes on without it.
jb_args=()
if [[ $JUST_BASH == 1 ]]; then
	jb_dir=$cache/just-bash
	jb_module=$jb_dir/node_modules/just-bash/dist/bundle/index.js
	if [[ ! -f $jb_module ]]; then
		say "installing just-bash from npm into $jb_dir"
		if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
			echo "node or npm is missing: just-bash is left out"
		else
			version=${JUST_BASH_VERSION:-$(npm view just-bash version 2>/dev/null || true)}
			if [[ -z $version ]]; then
				echo "npm cannot find just-bash: it is left out"
			else
				mkdir -p "$jb_dir"
				[[ -f $jb_dir/package.json ]] || echo '{"name":"gatehouse-bench-just-bash","private":true}' >"$jb_dir/package.json"
				npm install --prefix "$jb_dir" --no-audit --no-fund "just-bash@$version" >/dev/null ||
					echo "npm install just-bash@$version failed: just-bash is left out"
			fi
		fi
	fi
	if [[ -f $jb_module ]]; then
		echo "just-bash $(node -p "require('$jb_dir/node_modules/just-bash/package.json').version") on node $(node --version)"
		jb_args=(-jb-driver "$here/justbash.mjs" -jb-module "$jb_module" -jb-repeat "$JB_REPEAT")
	fi
fi

compare() {
	local n=$1 jb=("${jb_args[@]}")
	(( n <= JB_MAX_N )) || jb=()
	say "comparison at N=$n files (repeat $REPEAT; tree under $TREE_DIR)"
	"$ghbench" tree -n "$n" -root "$TREE_DIR/tree-$n"
	# Progress goes to the terminal and to a log kept beside the cache.
	"$ghbench" compare -n "$n" -root "$TREE_DIR/tree-$n" -repeat "$REPEAT" "${jb[@]}" \
		2> >(tee "$cache/compare-$n.log" >&2)
	echo "(every run: $cache/compare-$n.log)"
	rm -rf "${TREE_DIR:?}/tree-$n"
}

compare "$N"
for n in $SCALE_NS; do
	[[ $n == "$N" ]] || compare "$n"
done

# Host mounts: the gatehouse binary (`exec` in a fresh process per line, a
# host mount over the tree) against bash -c in the same directory, with
# syscalls per file from strace -c -f. gatehouse needs no cgo: it is built
# static, as a release would be (a dynamically linked binary pays ~1.5 ms
# of loader at every start).
if [[ $HOST == 1 ]]; then
	say "building gatehouse (static)"
	CGO_ENABLED=0 go build -o "$cache/gatehouse" .
	say "start-up: exec -- true against bash -c true (repeat $STARTUP_REPEAT)"
	"$ghbench" startup -gatehouse "$cache/gatehouse" -repeat "$STARTUP_REPEAT"
	for n in $HOST_NS; do
		say "host mounts at N=$n files, whole processes (repeat $HOST_REPEAT)"
		"$ghbench" tree -n "$n" -root "$TREE_DIR/host-$n"
		"$ghbench" hostmount -root "$TREE_DIR/host-$n" -gatehouse "$cache/gatehouse" \
			-repeat "$HOST_REPEAT" -strace 2> >(tee "$cache/hostmount-$n.log" >&2)
		echo "(every run: $cache/hostmount-$n.log)"
		rm -rf "${TREE_DIR:?}/host-$n"
	done
fi

# The rules' share as the profile grows (no program, no host tree needed).
for rules in $RULES_SCALE; do
	say "$rules rules against unrestricted at N=$N (repeat $REPEAT)"
	"$ghbench" compare -n "$N" -systems gatehouse,rules-only -rules "$rules" -repeat "$REPEAT" 2>/dev/null
done

say "$SESSIONS concurrent sessions in one process"
"$ghbench" sessions -sessions "$SESSIONS"

# Every go test benchmark G-14 names, run in one go so their medians come
# from the same stretch of machine time; AskRoundTrip is the rest
# package's ask round trip (refused line → ask on the event stream → allow
# over REST → line released).
say "ask round trip and micro-benchmarks (go test -bench, $MICRO_COUNT runs each)"
micro_re='^Benchmark(JudgeDemo|Judge1000Rules|JudgeRules|CheckOp|CheckOpNoPolicy|CheckOp1000Rules|CheckOpStarlark|CheckOpJavaScript|ViewStat|Preflight20Commands|Execute20Commands|RaiseAndAnswer|AnswerCommit|CreateSession|View10kAsks)$'
{
	go test -run '^$' -bench AskRoundTrip -benchtime "${ASK_TRIPS}x" -count "$MICRO_COUNT" ./rest/
	if [[ $MICRO == 1 ]]; then
		go test -run '^$' -bench "$micro_re" -benchtime 0.5s -count "$MICRO_COUNT" \
			./core/gate/ ./core/vfs/ ./core/shell/ ./core/decisions/ ./core/ ./tui/
	fi
} >"$cache/micro.txt" 2>&1 || { cat "$cache/micro.txt"; exit 1; }
"$ghbench" micro <"$cache/micro.txt"
echo "(raw go test output: $cache/micro.txt)"
