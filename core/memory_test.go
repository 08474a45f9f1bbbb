package core

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"gatehouse/core/vfs"
)

func memoryWorkspace(t *testing.T, budget int64, mounts ...vfs.MountSpec) *Session {
	t.Helper()
	return memoryWorkspaceFor(t, budget, 20*time.Second, mounts...)
}

func memoryWorkspaceFor(t *testing.T, budget int64, wall time.Duration, mounts ...vfs.MountSpec) *Session {
	t.Helper()
	if len(mounts) == 0 {
		mounts = []vfs.MountSpec{{Prefix: "/w", Files: map[string]string{"a": "1\n"}}}
	}
	ws, err := NewWorkspace(mounts, WithLimits(Limits{Memory: budget, WallTime: wall, Commands: 1 << 30}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s, err := ws.CreateSession("m")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// G-12.3: every way a line can hold memory counts against its budget:
// variables, command substitution output, here-documents, expansions,
// arrays, read and mapfile, pipes, what utilities keep (sort, tac, tail,
// jq, awk, line readers), padded printf fields and what the line writes to
// memory mounts. Past the budget the line ends with exit 125 and a clear
// message, within seconds, and the session runs the next line.
//
// The budgets are small so that even a line growing a little per step (an
// array element, a byte read at a time, a file appended to) reaches its
// budget long before the wall time on a loaded machine and under the race
// detector; a few lines get the budget their mechanism needs to be the one
// that trips.
func TestMemoryBudgetEndsTheLine(t *testing.T) {
	t.Parallel()
	const small = 256 << 10
	lines := []struct {
		line   string
		budget int64
	}{
		{`x=$(yes | head -c 1G); echo ${#x}`, small},
		{`a=x; while :; do a=$a$a; done`, small},
		{`a=x; for i in $(seq 40); do a=$a$a; done`, small},
		{`x=$(seq 10000); while :; do x=$x$x; done`, small},
		{`x=$(seq 100000); y=${x//?/xxxxxxxxxxxxxxxxxxxx}; echo ${#y}`, 4 << 20},
		{`x=$(seq 100000); y=${x//?/$x}; echo ${#y}`, 4 << 20},
		{`printf -v x '%*s' 400000 ''; y=${x^^}; echo ${#y}`, 1 << 20},
		{`printf -v x '%*s' 400000 ''; y=${x@Q}; echo ${#y}`, 1 << 20},
		{"x=$(seq 20000)\ncat <<EOF | wc -c\n" + strings.Repeat("$x", 200) + "\nEOF", 1 << 20},
		{`x=$(seq 20000); echo ` + strings.Repeat("$x", 200) + ` | wc -c`, 1 << 20},
		{`x=$(seq 20000); set -- $x $x $x $x $x $x $x $x $x $x $x $x $x $x $x $x $x $x $x $x; echo $#`, 1 << 20},
		{`yes | mapfile a; echo ${#a[@]}`, small},
		{`tr -d '\n' < /dev/zero | mapfile a; echo ${#a[@]}`, small},
		{`yes | sort | head -1`, small},
		{`yes | sort -u | head -1`, small},
		{`seq 1e9 | tac | head -1`, small},
		{`seq 200000 | sed 's/.*/1+/' | tr -d '\n' | bc`, 4 << 20},
		{`yes | tr -d '\n' | tail -1`, small},
		{`cat /dev/zero | sort`, small},
		{`grep x /dev/zero`, small},
		{`cut -c1 /dev/zero`, small},
		{`uniq /dev/zero`, small},
		{`xargs < /dev/zero`, small},
		{`tr -d '\n' < /dev/zero | sed s/a/b/`, small},
		{`echo x | sed -e ':a' -e 'G;ba'`, small},
		{`echo x | sed ':a;H;x;ba'`, small},
		{`echo x | sed 'h;:a;G;G;G;G;G;G;G;G;h;ba'`, small},
		{`echo x | sed ':a;s/.*/&&/;ba'`, small},
		{`echo xxxxxxxxxxxxxxxx | sed ':a;s/x/&&&&&&&&/g;ba'`, small},
		{`jq -n '[range(1e9)]'`, small},
		{`yes '"x"' | jq -s length`, small},
		{`awk 'BEGIN { while (1) a[i++] = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" }'`, small},
		{`awk 'BEGIN { s = "x"; while (1) s = s s }'`, small},
		{`awk 'BEGIN { s = "x"; while (1) s = s s s }'`, small},
		// Strings each within the room, held together by variables,
		// locals and split()'s pieces.
		{`awk 'BEGIN { s = sprintf("%1000000s", ""); a = s "a"; b = s "b"; c = s "c"; d = s "d"; e = s "e"; print "held" }'`, 4 << 20},
		{`awk 'function f(n,  s) { s = sprintf("%300000s", n); if (n < 100) f(n + 1) } BEGIN { f(0); print "held" }'`, 4 << 20},
		{`head -c 1000000 /dev/zero | tr '\0' a | sed 'p;p;p;p;p' | awk '{ getline a; getline b; getline c; getline d; getline e; print "held" }'`, 4 << 20},
		{`head -c 1M /dev/zero | tr '\0' a | awk -F '' '{ print NF }'`, 4 << 20},
		{`head -c 1M /dev/zero | tr '\0' a | awk '{ print split($0, p, "") }'`, 4 << 20},
		{`printf '%*s' 2000000000 x | wc -c`, small},
		// A line of each of several memory files, held at once.
		{`head -c 1M /dev/zero | tr '\0' a > /tmp/x; paste /tmp/x /tmp/x /tmp/x /tmp/x /tmp/x /tmp/x /tmp/x /tmp/x | wc -c`, 4 << 20},
		{`head -c 1500K /dev/zero | tr '\0' a > /tmp/x; join /tmp/x /tmp/x | wc -c`, 4 << 20},
		{`head -c 1500K /dev/zero | tr '\0' a > /tmp/x; comm /tmp/x /tmp/x | wc -c`, 4 << 20},
		// column holds every line and cell.
		{`yes 'a b c' | head -c 2M | column -t | wc -c`, 4 << 20},
		{`yes 'a b c' | head -c 3M | column | wc -c`, 4 << 20},
		{`printf -v x '%*s' 2000000000 y; echo ${#x}`, small},
		{`cat /dev/zero > /tmp/f`, small},
		{`head -c 1G /dev/zero > /tmp/f`, small},
		{`split -b 100 /dev/zero /tmp/x`, small},
		{`dd if=/dev/zero of=/tmp/f bs=64K`, small},
		{`dd if=/dev/zero bs=1G count=1 of=/dev/null`, small},
		{`yes | csplit -s - 1000000`, small},
		{`yes | pr -2 -l 1000000000 | tail -1`, small},
		{`yes | zip -q -@ /tmp/a.zip`, small},
		{`yes | bzip2 | wc -c`, small},
		{`yes | bzip2 -1 | wc -c`, small},
		{`printf 'a\tb\n' | pr -t -2 -J -e2000000000 | wc -c`, small},
		{`printf '%40000s' | tr ' ' '\n' | csplit -s -f /tmp/x - 2`, 1 << 20},
		{`for i in $(seq 100); do cat <(head -c 16M /dev/zero) > /dev/null; done`, small},
		{`f() { local x=$(head -c 64K /dev/zero | tr '\0' x); g; }; g() { local y=$x$x; f; }; f`, small},
		{`( a=x; while :; do a=$a$a; done )`, small},
		{`x=$(a=x; while :; do a=$a$a; done; echo $a)`, small},
		{`{ a=x; while :; do a=$a$a; done; } | cat`, small},
		{`bash -c 'a=x; while :; do a=$a$a; done'`, small},
		{`eval 'a=x; while :; do a=$a$a; done'`, small},
		{`a=(); while :; do a+=(xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx); done`, small},
		{`declare -A m; i=0; while :; do m[$i]=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; i=$((i+1)); done`, small},
		{`a=(); i=0; while :; do a[i++]=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done`, small},
		{`a=(); i=0; while :; do a[i+=2]=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done`, small},
		{`a=(); while :; do a+=(xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx); done`, small},
		{`a=; while :; do a+=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done`, small},
		{`declare -A m; i=0; while :; do ((m[k$((i++))]=i)); done`, small},
		{`f() { local -A m; local i=0; while :; do m[$((i++))]=xxxxxxxxxxxxxxxxxxxxxxxx; done; }; f`, small},
		{`a=(x); while :; do a[0]+=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; done`, small},
		{`tr -d '\n' < /dev/zero | read -r x`, small},
		{`read -r x < <(yes | tr -d '\n'); echo ${#x}`, small},
		{`while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx >> /tmp/grow; done`, small},
	}
	for _, tc := range lines {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			s := memoryWorkspaceFor(t, tc.budget, 20*time.Second)
			start := time.Now()
			res := s.Execute(context.Background(), tc.line)
			want := fmt.Sprintf("gatehouse: line exceeded the memory limit (%s)\n", map[int64]string{small: "256KiB", 1 << 20: "1MiB", 4 << 20: "4MiB"}[tc.budget])
			if res.ExitCode != 125 || !strings.HasSuffix(res.Stderr, want) {
				t.Errorf("exit %d stdout %q stderr %q, want 125 and %q", res.ExitCode, tail(res.Stdout), tail(res.Stderr), want)
			}
			// The race detector (-short) slows the lines that grow a
			// little per step tenfold; the message says the budget
			// ended them.
			if d := time.Since(start); d > 10*time.Second && !testing.Short() {
				t.Errorf("took %v", d)
			}
			// What the line left in the session's variables stays
			// counted until unset.
			next := s.Execute(context.Background(), "unset a m; echo alive; x=$(seq 1000); echo ${#x}")
			if next.Stdout != "alive\n3892\n" || next.ExitCode != 0 {
				t.Errorf("the session did not survive: %+v", next)
			}
		})
	}
}

// G-12.3: element writes and appends change a variable in place, and the
// budget counts what each adds: four arrays of 350 KB or more each do not fit in
// 1 MiB, and the same arrays made and unset one after the other do, as
// often as the line likes, so every byte charged is given back.
func TestInPlaceWritesAreCounted(t *testing.T) {
	t.Parallel()
	fills := map[string]string{
		"assoc":   `declare -A %[1]s; for i in $(seq 4000); do %[1]s[k$i]=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx$i; done`,
		"indexed": `%[1]s=(); for i in $(seq 4000); do %[1]s[i*2]=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx$i; done`,
		"append":  `%[1]s=(); for i in $(seq 4000); do %[1]s+=(xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx$i); done`,
		"arith":   `declare -A %[1]s; for i in $(seq 3000); do ((%[1]s[kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk$i]=i)); done`,
		"string":  `%[1]s=; for i in $(seq 4000); do %[1]s+=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx$i; done`,
	}
	for name, fill := range fills {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := memoryWorkspace(t, 1<<20)
			together := fmt.Sprintf(fill, "v1") + "; " + fmt.Sprintf(fill, "v2") + "; " + fmt.Sprintf(fill, "v3") + "; " + fmt.Sprintf(fill, "v4") + "; echo fit"
			if res := s.Execute(context.Background(), together); res.ExitCode != 125 {
				t.Errorf("four fills held together: exit %d, stdout %q, want 125", res.ExitCode, res.Stdout)
			}
			one := fmt.Sprintf(fill, "v")
			apart := "unset v1 v2 v3 v4; for r in 1 2 3 4 5 6; do " + one + "; unset v; done; " + one + "; echo fit"
			if res := s.Execute(context.Background(), apart); res.ExitCode != 0 || res.Stdout != "fit\n" {
				t.Errorf("fills made and unset in turn: %+v", res)
			}
			if res := s.Execute(context.Background(), "unset v; "+one+"; echo fit"); res.ExitCode != 0 || res.Stdout != "fit\n" {
				t.Errorf("the next line: %+v", res)
			}
		})
	}
}

// G-12.3: what fits runs as before, and what a line gives back (a
// subshell's variables, a substitution's output, a utility's input, a
// function's locals) is free for the next line and the rest of the line.
func TestMemoryBudgetLeavesRoomForWhatFits(t *testing.T) {
	t.Parallel()
	s := memoryWorkspace(t, 32<<20)
	// Repeats show that what a line gives back is free again; a few do
	// under the race detector (-short), where each costs ten times more.
	// The streams through tail and head stay over the 32 MiB budget.
	rounds, lines, stream := 20, 1000000, "64M"
	if testing.Short() {
		rounds, lines, stream = 3, 100000, "40M"
	}
	cases := []struct{ line, want string }{
		{`x=$(seq 100000); echo ${#x}`, "588894\n"},
		{`seq 200000 | sort -n | tail -1`, "200000\n"},
		{`seq 200000 | tac | head -1`, "200000\n"},
		{fmt.Sprintf(`for i in $(seq %d); do x=$(head -c 4M /dev/zero | tr '\0' x); done; echo ${#x}`, rounds), "4194304\n"},
		{fmt.Sprintf(`for i in $(seq %d); do ( y=$(head -c 4M /dev/zero | tr '\0' y) ); done; echo done`, rounds), "done\n"},
		{fmt.Sprintf(`f() { local z=$(head -c 4M /dev/zero | tr '\0' z); }; for i in $(seq %d); do f; done; echo done`, rounds), "done\n"},
		{fmt.Sprintf(`for i in $(seq %d); do head -c 4M /dev/zero | sort | wc -c; done | sort -u`, rounds), "4194305\n"},
		{fmt.Sprintf(`for i in $(seq %d); do head -c 4M /dev/zero > /tmp/f; done; wc -c < /tmp/f`, rounds), "4194304\n"},
		{`cat /dev/zero | head -c ` + stream + ` | wc -c`, map[string]string{"64M": "67108864\n", "40M": "41943040\n"}[stream]},
		{fmt.Sprintf(`yes | head -%d | uniq -c`, lines), fmt.Sprintf("%d y\n", lines)},
		{`a=(); for i in $(seq 1000); do a+=($i); done; echo ${#a[@]}`, "1000\n"},
		// awk gives back what split() replaces and what a function's
		// locals held when it returns.
		{`awk 'BEGIN { for (i = 0; i < 100; i++) s = s " " i; for (i = 0; i < 20000; i++) n = split(s, p); print n }'`, "100\n"},
		{`awk 'function f(  a, s) { a[1]; a[2]; s = sprintf("%1000s", "") } BEGIN { for (i = 0; i < 40000; i++) f(); print "ok" }'`, "ok\n"},
		{`seq 40000 | awk 'function f(  s) { s = sprintf("%1000s", ""); next } { f() } END { print NR }'`, "40000\n"},
		{`seq 200000 | tr '\n' ' ' | awk '{ n = 0; for (i = 1; i <= NF; i++) n += $i; print NF, n }'`, "200000 20000100000\n"},
		// sed's hold space holding its whole input, a long line rewritten.
		{`seq 100000 | sed -n 'H;${x;s/\n/,/g;p}' | wc -c`, "588896\n"},
		{`head -c 8M /dev/zero | tr '\0' a | sed 's/^a/b/;h;G' | wc -c`, "16777217\n"},
		// tail and head -n -N hold only the lines they may still print.
		{`yes | head -c ` + stream + ` | tail -2`, "y\ny\n"},
		{`yes | head -c ` + stream + ` | tail -c 3`, "\ny\n"},
		{`yes | head -c ` + stream + ` | head -n -1 | wc -c | tr -d ' '`, map[string]string{"64M": "67108862\n", "40M": "41943038\n"}[stream]},
	}
	for _, tc := range cases {
		res := s.Execute(context.Background(), tc.line)
		if got := strings.TrimLeft(res.Stdout, " "); got != tc.want || res.ExitCode != 0 {
			t.Errorf("%s: %+v, want %q", tc.line, res, tc.want)
		}
	}
	// The session's variables stay counted across lines, and unsetting
	// them gives the room back.
	// A substitution's output is charged three times its size while it is
	// captured (the buffer it grows in), its variable once.
	if res := s.Execute(context.Background(), `big=$(head -c 9M /dev/zero | tr '\0' x); echo ${#big}`); res.Stdout != "9437184\n" {
		t.Fatalf("big: %+v", res)
	}
	if res := s.Execute(context.Background(), `more=$(head -c 9M /dev/zero | tr '\0' y); echo ${#more}`); res.ExitCode != 125 {
		t.Errorf("a second 9 MiB capture next to the first value fit a 32 MiB budget: %+v", res)
	}
	if res := s.Execute(context.Background(), `unset big; more=$(head -c 9M /dev/zero | tr '\0' y); echo ${#more}`); res.Stdout != "9437184\n" {
		t.Errorf("after unset: %+v", res)
	}
}

// G-12.3, G-5.6: a memory mount takes a size: writes and creations past it
// fail with "No space left on device" and removing files frees the space.
// A host mount's write quota fails writes past it with "Disk quota
// exceeded".
func TestMountSizeAndQuota(t *testing.T) {
	t.Parallel()
	host := t.TempDir()
	s := memoryWorkspace(t, 512<<20,
		vfs.MountSpec{Prefix: "/small", Size: 64 << 10},
		vfs.MountSpec{Prefix: "/host", HostDir: host, Quota: 64 << 10})
	cases := []struct{ line, stdout, stderr string }{
		{`head -c 100000 /dev/zero > /small/f; echo $?; [ $(wc -c < /small/f) -le 65536 ] && echo bounded`, "1\nbounded\n", ""},
		{`rm -f /small/f; head -c 30000 /dev/zero > /small/a && head -c 30000 /dev/zero > /small/b; echo $?; wc -c < /small/b`, "0\n30000\n", ""},
		{`cp /small/a /small/c; echo $?`, "1\n", "No space left on device"},
		{`rm /small/a /small/c; cp /small/b /small/c && echo copied`, "copied\n", ""},
		{`for i in $(seq 1000); do touch /small/f$i 2>/dev/null || break; done; [ $i -lt 1000 ] && echo "entries bounded"`, "entries bounded\n", ""},
		{`head -c 100000 /dev/zero > /host/f; echo $?`, "1\n", ""},
		{`cp /small/b /host/g; echo $?`, "1\n", "Disk quota exceeded"},
	}
	for _, tc := range cases {
		res := s.Execute(context.Background(), tc.line)
		if (tc.stdout != "" && res.Stdout != tc.stdout) || (tc.stderr != "" && !strings.Contains(res.Stderr, tc.stderr)) {
			t.Errorf("%s: stdout %q stderr %q, want %q and %q", tc.line, res.Stdout, res.Stderr, tc.stdout, tc.stderr)
		}
	}
}

// G-12.3: ${x//pat/rep} of a large value is built match by match under the
// budget; it gives what the whole-string replacement gives (Go's regexp
// semantics for successive and empty matches are the oracle here).
func TestLargeReplaceAllMatchesTheWholeStringReplacement(t *testing.T) {
	t.Parallel()
	s := memoryWorkspace(t, 256<<20)
	base := strings.Repeat("abaab\u00e9cab\n", 9000) // > 64 KiB
	for _, tc := range []struct{ glob, re string }{
		{"a", `a`}, {"?b", `(?s).b`}, {"ab*", `(?s)ab.*`}, {"[ab]", `[ab]`}, {"é", `é`},
	} {
		line := "x=$(printf 'abaab\\303\\251cab\\n%.0s' $(seq 9000)); y=${x//" + tc.glob + "/<>}; printf %s \"$y\" | wc -c; printf %s \"$y\" | sha256sum"
		res := s.Execute(context.Background(), line)
		want := regexp.MustCompile(tc.re).ReplaceAllLiteralString(strings.TrimRight(base, "\n"), "<>")
		wantOut := fmt.Sprintf("%d\n%x  -\n", len(want), sha256.Sum256([]byte(want)))
		if res.Stdout != wantOut {
			t.Errorf("${x//%s/<>}: %q, want %q (stderr %q)", tc.glob, res.Stdout, wantOut, res.Stderr)
		}
	}
}

// G-12.3: a long replacement text multiplies a value at every match, so a
// replacement of a large value asks the budget as its result grows by the
// megabyte, not only every 65,536 matches: `${x//a/$x}` repeated once built
// gigabytes between two questions, past the budget and the line's time. And
// the elements of an array replaced one by one are held together: each
// question counts those already built.
func TestLongReplacementTextIsCharged(t *testing.T) {
	t.Parallel()
	s := memoryWorkspace(t, 4<<20)
	for _, line := range []string{
		`x=$(seq 15000); : "${x//55/$x}"; echo survived`,
		`x=$(seq 15000); [[ -n ${x//55/$x} ]]; echo survived`,
		`x=$(printf '%060000d' 0); a=($(seq 200)); [[ -n "${a[*]/?/$x}" ]]; echo survived`,
		`x=$(printf '%060000d' 0); a=($(seq 200)); case "${a[@]/?/$x}" in y) ;; esac; echo survived`,
	} {
		res := s.Execute(context.Background(), line)
		if want := "gatehouse: line exceeded the memory limit (4MiB)\n"; res.ExitCode != 125 || res.Stderr != want {
			t.Errorf("%s: exit %d stdout %q stderr %q, want 125 and %q", line, res.ExitCode, res.Stdout, tail(res.Stderr), want)
		}
	}
}

// TestWideFieldsAreCharged: a field width is a count of padding bytes
// (GNU streams `date +%999999999Y` as a gigabyte of zeros); date, ls
// --time-style=+FORMAT, awk's strftime(), find -printf, nl -w and diff -W
// ask the line's memory budget before building one (and diff -y writes
// what it built every 64 KiB), printf's %(…)T, whose bash
// buffer holds 128 bytes, never builds it, expand and xxd -p stream it,
// and an xxd dump line holds 256 octets at most, as xxd's (G-12.3).
func TestWideFieldsAreCharged(t *testing.T) {
	t.Parallel()
	s := memoryWorkspace(t, 4<<20)
	for _, line := range []string{
		`date +%999999999Y | wc -c`,
		`date +%99999999999999999999999Y | wc -c`,
		`ls -l --time-style=+%999999999Y /w/a | wc -c`,
		`awk 'BEGIN { print length(strftime("%999999999Y")) }'`,
		`find /w/a -printf '%999999999p' | wc -c`,
		`find /w/a -printf '%999999999TY' | wc -c`,
		`echo a | nl -w 999999999 | wc -c`,
		`diff -y -W 999999999 /w/a /w/a | wc -c`,
	} {
		res := s.Execute(context.Background(), line)
		if want := "gatehouse: line exceeded the memory limit (4MiB)\n"; res.ExitCode != 125 || res.Stderr != want {
			t.Errorf("%s: exit %d stdout %q stderr %q, want 125 and %q", line, res.ExitCode, res.Stdout, tail(res.Stderr), want)
		}
	}
	for line, want := range map[string]string{
		`printf '%(%999999999Y)T' -1 | wc -c; echo survived`: "0\nsurvived\n",
		`date +%10Y | wc -c`:                                         "11\n",
		`date -d @0 +%-5d%_6H%010s`:                                  "1     00000000000\n",
		"find /w/a -printf '%-5p|%5p|%99999999999999999999p\\n'":     "/w/a | /w/a|/w/a\n",
		"printf 'a\\tb\\n' | expand -t 99999999 | wc -c":             "100000001\n",
		"printf 'a\\tb\\n' | expand -t 3,9 | od -c | head -1":        "0000000   a           b  \\n\n",
		"printf %070000d 0 | xxd -p -c 99999999 | wc -c":             "140001\n",
		"printf abcdefg | xxd -p -c 3":                               "616263\n646566\n67\n",
		"echo a | xxd -c 999999999; echo $?":                         "1\n",
		"echo a | nl -w 3":                                           "  1\ta\n",
		"seq 3000 > /tmp/x; diff -y -W 100000 /tmp/x /tmp/x | wc -l": "3000\n",
	} {
		if res := s.Execute(context.Background(), line); res.ExitCode != 0 || res.Stdout != want {
			t.Errorf("%s: exit %d stdout %q stderr %q, want %q", line, res.ExitCode, res.Stdout, res.Stderr, want)
		}
	}
}

// An archive says how big its members are, and a sparse member's size is
// what its holes expand to: GNU tar's 10 KB archive of a 30 GB sparse file
// (testdata/sparse-30g.tar.gz, gzip-compressed to keep it small here), or a
// gzip stream of zeros, asks for far more than it holds. Extracting either
// ends the line at its budget (125) instead of the process; listing reads
// no member's data.
func TestArchiveBombsEndTheLine(t *testing.T) {
	packed, err := os.ReadFile("testdata/sparse-30g.tar.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(packed))
	if err != nil {
		t.Fatal(err)
	}
	sparse, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	var zeros bytes.Buffer
	zw := gzip.NewWriter(&zeros)
	zw.Write(make([]byte, 256<<20))
	zw.Close()
	s := memoryWorkspace(t, 32<<20, vfs.MountSpec{Prefix: "/w", Files: map[string]string{
		"sparse.tar": string(sparse), "sparse.tar.gz": string(packed), "zeros.gz": zeros.String(),
	}})
	for _, line := range []string{"tar -xf sparse.tar", "tar -xzf sparse.tar.gz", "tar -xf zeros.gz"} {
		res := s.Execute(context.Background(), "cd /w && "+line)
		if res.ExitCode != 125 || !strings.Contains(res.Stderr, "line exceeded the memory limit") {
			t.Errorf("%s: exit %d\n%s%s", line, res.ExitCode, res.Stdout, res.Stderr)
		}
	}
	res := s.Execute(context.Background(), "cd /w && tar -tvf sparse.tar")
	if res.ExitCode != 0 || !strings.Contains(res.Stdout, " 32212254720 ") {
		t.Errorf("listing the sparse archive: exit %d\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if res := s.Execute(context.Background(), "ls /w"); res.Stdout != "sparse.tar\nsparse.tar.gz\nzeros.gz\n" {
		t.Errorf("after the bombs: %+v", res)
	}
}

// G-12.3: unzip -p and -t inflate a member to their output as it comes,
// holding nothing: a member larger than the budget streams, as Info-ZIP's
// does (before, every inflated byte was charged and the line ended with
// 125). tar -x of a gzip bomb ends at the budget with the decompressed
// buffer's capacity charged: charged by the bytes read, its doubling held
// up to twice the budget first.
func TestArchiveMembersAreBoundedAsTheyInflate(t *testing.T) {
	var zipped bytes.Buffer
	zw := zip.NewWriter(&zipped)
	w, _ := zw.Create("big")
	w.Write(make([]byte, 96<<20))
	zw.Close()
	var zeros bytes.Buffer
	gz := gzip.NewWriter(&zeros)
	gz.Write(make([]byte, 256<<20))
	gz.Close()
	s := memoryWorkspace(t, 32<<20, vfs.MountSpec{Prefix: "/w", Files: map[string]string{
		"big.zip": zipped.String(), "zeros.gz": zeros.String(),
	}})
	if res := s.Execute(context.Background(), "cd /w && unzip -p big.zip | wc -c"); res.ExitCode != 0 || res.Stdout != "100663296\n" {
		t.Errorf("unzip -p: %+v", res)
	}
	if res := s.Execute(context.Background(), "cd /w && unzip -t big.zip"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "No errors detected") {
		t.Errorf("unzip -t: %+v", res)
	}
	var res Result
	grew := heapPeakDuring(func() { res = s.Execute(context.Background(), "cd /w && tar -xf zeros.gz") })
	if res.ExitCode != 125 || !strings.Contains(res.Stderr, "line exceeded the memory limit") {
		t.Errorf("tar -xf zeros.gz: exit %d %s", res.ExitCode, res.Stderr)
	}
	t.Logf("tar -xf zeros.gz: the heap grew %d MiB at its peak", grew>>20)
	if grew > 48<<20 {
		t.Errorf("tar -xf zeros.gz: the heap held %d MiB more at its peak under a 32 MiB budget", grew>>20)
	}
}

// G-12.3: grep -o and rg (-o, --vimgrep, --count-matches, -r) find a long
// line's matches as they print them, a few thousand at a time: regexp's
// FindAll list holds about 40 bytes per match, so one line of a's held
// forty times the line, uncharged, and was complete before anything was
// printed, out of reach of the line's end (its goroutine ran on after the
// line was over). Each of these now ends within its wall time or its
// budget, and what fits prints as before.
func TestLongLinesMatchPieceByPiece(t *testing.T) {
	t.Parallel()
	const big = `head -c 20000000 /dev/zero | tr '\0' a > /w/big; `
	const small = `head -c 100000 /dev/zero | tr '\0' a > /w/small; `
	cases := []struct{ line, want string }{
		{big + `grep -o a /w/big | wc -l`, ""},
		{big + `rg -o a /w/big | wc -l`, ""},
		{big + `rg -o '^a|a' /w/big | wc -l`, ""},
		{big + `rg --vimgrep a /w/big | wc -l`, ""},
		{big + `rg -c --count-matches a /w/big`, ""},
		{big + `rg -r '$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0$0' a /w/big | wc -c`, ""},
		{small + `grep -o a /w/small | wc -l`, "100000\n"},
		{small + `grep -o '^a\|a' /w/small | wc -l`, "100000\n"},
		{small + `rg -o '^a|a' /w/small | wc -l`, "100000\n"},
		{small + `rg -c --count-matches a /w/small`, "100000\n"},
		{small + `grep -ow 'a*' /w/small | wc -c`, "100001\n"},
		{`head -c 1000 /dev/zero | tr '\0' a | rg --vimgrep a | wc -l`, "1000\n"},
		{small + `rg -r xy a /w/small | wc -c`, "200001\n"},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			wall := 4 * time.Second
			if raceDetector && tc.want != "" {
				// Under the race detector, beside the 20 MB lines, a line
				// that must finish needs more than 4 s to.
				wall = 30 * time.Second
			}
			s := memoryWorkspaceFor(t, 96<<20, wall)
			res := s.Execute(context.Background(), tc.line)
			if strings.Contains(res.Stderr, "did not stop") {
				t.Errorf("ran on past the line's end: %q", tail(res.Stderr))
			}
			switch {
			case tc.want != "" && res.Stdout != tc.want:
				t.Errorf("stdout %q stderr %q, want %q", tail(res.Stdout), tail(res.Stderr), tc.want)
			case tc.want == "" && res.ExitCode != 0 && res.ExitCode != 124 && res.ExitCode != 125:
				t.Errorf("exit %d stderr %q", res.ExitCode, tail(res.Stderr))
			}
		})
	}
}

// G-12.3: utilities that looped without looking at the line's end, or
// built a list nothing charged before doing anything, ran on after their
// line was over ('a command of the line did not stop'): split listed
// every piece first (-b 1 of 20 MB, twenty million; -n 3/100000000000 a
// hundred billion empty ones for one line of input), tsort prepended
// each successor to a copy of the list (100,000 successors of one item:
// 5e9 copies), expand padded a line of tabs on after its stdout was
// gone, mkdir -p made a path's 200,000 parents copying each prefix, join
// paired a million lines of one key with a thousand, and awk's gsub
// searched a pattern whose every match scans the rest of the line (a*b|a)
// in one call of minutes.
func TestUtilitiesStopAtTheLinesEnd(t *testing.T) {
	t.Parallel()
	cases := []struct{ line, want string }{
		{`echo x | split -n 3/100000000000; echo $?`, "0\n"},
		{`seq 10 > /w/f; split -n 2/3 /w/f`, "\n5\n6\n7\n"},
		{`echo x | split -e -n 100000000000 - /w/x`, ""},
		{`head -c 20000000 /dev/zero | split -b 1 - /w/x`, ""},
		{`seq 1 100000 | sed 's/^/a /' | tsort | wc -l`, "100001\n"},
		{`seq 1 100000 | sed 's/^/a /' | tsort | head -3`, "a\n100000\n99999\n"},
		{`head -c 3000000 /dev/zero | tr '\0' '\t' | expand -t 1000 | wc -c`, ""},
		{`printf 'a\tb\n' | expand -t 4`, "a   b\n"},
		{`p=$(head -c 200000 /dev/zero | sed 's/\x0/a\//g'); mkdir -p /w/$p`, ""},
		{`mkdir -p /w/m/./n//o/ && cd /w/m/n/o && pwd`, "/w/m/n/o\n"},
		{`yes a | head -1000000 | join - <(yes a | head -1000) | wc -l`, ""},
		{`printf '1 a\n1 b\n2 c\n' > /w/j; join /w/j /w/j`, "1 a a\n1 a b\n1 b a\n1 b b\n2 c c\n"},
		{`s=$(head -c 300000 /dev/zero | tr '\0' a); echo $s | awk '{gsub(/a*b|a/, "c"); print length($0)}'`, ""},
		{`head -c 100000 /dev/zero | tr '\0' a | awk '{n = gsub(/a/, "bb"); print n, length($0)}'`, "100000 200000\n"},
		{`s=$(head -c 300000 /dev/zero | tr '\0' a); echo $s | sed 's/a*b\|a/c/g' | wc -c`, ""},
		{`s=$(head -c 300000 /dev/zero | tr '\0' a); echo $s | grep -o 'a*b\|a' | wc -l`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			t.Parallel()
			s := memoryWorkspaceFor(t, 96<<20, 4*time.Second)
			res := s.Execute(context.Background(), tc.line)
			if strings.Contains(res.Stderr, "did not stop") {
				t.Errorf("ran on past the line's end: %q", tail(res.Stderr))
			}
			if tc.want != "" && res.Stdout != tc.want {
				t.Errorf("stdout %q stderr %q, want %q", tail(res.Stdout), tail(res.Stderr), tc.want)
			}
		})
	}
}

// G-12.3: sizes near 2^63 neither panic nor pass the budget: a charge of
// 2^63-1 bytes overflowed the line's sum and passed (truncate -s
// 9223372036854775807 then made the file's slice at that size, a panic,
// and printf's widest field did the same), od -w2000000000 made its two
// blocks, four gigabytes, without asking.
func TestExtremeSizesStayInTheBudget(t *testing.T) {
	t.Parallel()
	cases := []struct{ line, stdout, stderr string }{
		{`truncate -s 9223372036854775807 /w/a; echo $?; wc -c < /w/a`, "1\n2\n",
			"truncate: failed to truncate '/w/a' at 9223372036854775807 bytes: File too large\n"},
		{`truncate -s 17592186044417 /w/a; echo $?`, "1\n", "truncate: failed to truncate '/w/a' at 17592186044417 bytes: File too large\n"},
		{`printf '%*.*s\n' -9223372036854775808 -9223372036854775808 abc`, "", "gatehouse: line exceeded the memory limit (96MiB)\n"},
		{`od -w2000000000 /w/a; echo $?`, "", "gatehouse: line exceeded the memory limit (96MiB)\n"},
		{`od -w4 /w/a`, "0000000 005061\n0000002\n", ""},
	}
	for _, tc := range cases {
		s := memoryWorkspaceFor(t, 96<<20, 10*time.Second)
		res := s.Execute(context.Background(), tc.line)
		if res.Stdout != tc.stdout || res.Stderr != tc.stderr {
			t.Errorf("%s: stdout %q stderr %q, want %q and %q", tc.line, res.Stdout, tail(res.Stderr), tc.stdout, tc.stderr)
		}
	}
}
