#!/usr/bin/env bash
# git inside the gate against the host's real git (G-14): git status and git diff --stat on a
# 10,000-file repository with ten changed files. gatehouse runs the line in a session over a
# memory mount and over a host mount on tmpfs; each iteration also runs the host's git on its
# own copy of the tree on tmpfs (/dev/shm), so both meet the same load. The benchmark reports
# gatehouse-ms, git-ms (mean wall times) and their ratio; the target is a ratio of at most 3.
#
#   bench/git.sh             # 20 iterations of each line, about a minute on 2 cores
#   REPEAT=50 bench/git.sh   # more
set -euo pipefail
cd "$(dirname "$0")/.."
command -v git >/dev/null || { echo "bench/git.sh needs the host's git to compare with"; exit 1; }
git --version
go test -count=1 -run '^$' -bench '^BenchmarkGit10k$' -benchtime "${REPEAT:-20}x" ./core/shell/utils/git/ |
  grep -E '^(Benchmark|goos|cpu)'
