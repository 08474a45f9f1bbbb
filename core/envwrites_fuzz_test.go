package core

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
	"gatehouse/store/sqlite"
)

// FuzzPreSessionWrites: whatever a line does, a variable pre_session
// refuses never comes to exist (G-8.1). The policy refuses every write to
// a name starting with BLOCK; after the line, the session's variables
// (declare -p), its exported environment (env) and its names
// (${!BLOCK@}) must hold none.
//
// The input picks a write form and wrappers from the tables below, and is
// also run as a line of its own, so the fuzzer can grow forms the tables
// lack. No form may give the refused name a value through any door: the
// interpreter's handler sees every write, so the property holds by
// construction, and this target is here to catch a door that goes around
// it (a new builtin, a bookkeeping write, a copy into a subshell).
func FuzzPreSessionWrites(f *testing.F) {
	for _, seed := range []string{
		"\x00\x00", "\x05\x01", "\x0b\x02", "\x0f\x04\x03", "\x11\x07",
		`BLOCK=1`, `eval "BLOCK_E=1"`, `declare -n r=BLOCK_N; r=1`, `(( BLOCK_A = 1 ))`,
		`for BLOCK_F in a; do :; done`, `read BLOCK_R <<< x`, `: ${BLOCK_D:=1}`,
		`r=BLOCK_I; : ${!r:=1}; unset r`, `f() { declare -g BLOCK_G=1; }; f`, `BLOCK_L=([k]+=v)`,
	} {
		f.Add(seed)
	}
	db, err := sqlite.Open(filepath.Join(f.TempDir(), "ledger.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { db.Close() })
	ws, err := NewWorkspace([]vfs.MountSpec{{Prefix: "/work", Files: map[string]string{"set.sh": "BLOCK_S=1\n"}}},
		WithProfiles(gate.ProfileSpec{Name: "open", Cwd: "/work"}), WithDefaultProfile("open"), WithStore(db),
		WithPolicies(gate.Named{Name: "freeze", Policy: freezeBlock{}}),
		WithLimits(Limits{WallTime: 500 * time.Millisecond, OutputBytes: 64 << 10, Commands: 2000, BackgroundJobs: 8, Depth: 20}))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { ws.Close() })

	f.Fuzz(func(t *testing.T, input string) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%q panicked: %v\n%s", input, p, debug.Stack())
			}
		}()
		for _, line := range []string{writeFormLine(input), input} {
			s, err := ws.CreateSession("fuzzer")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			s.Execute(ctx, line)
			res := s.Execute(ctx, `declare -p; env; echo "names:${!BLOCK@}"`)
			cancel()
			if refusedNameListed(res.Stdout) {
				t.Fatalf("after %q a refused variable exists:\n%s", line, res.Stdout)
			}
		}
	})
}

// The write forms and wrappers a fuzzed input combines; %[1]s is the
// variable's name.
var (
	fuzzWriteForms = []string{
		`%[1]s=v`, `export %[1]s=v`, `declare %[1]s=v`, `declare -x %[1]s`, `readonly %[1]s=v`,
		`typeset -a %[1]s=(a b)`, `declare -A %[1]s=([k]=v)`, `let %[1]s=1`, `(( %[1]s = 2 ))`,
		`: $(( %[1]s = 3 ))`, `a[%[1]s=1]=x`, `: ${%[1]s:=v}`, `: ${x:$((%[1]s=1))}`,
		`for %[1]s in a b; do :; done`, `read %[1]s <<< v`, `read -a %[1]s <<< "a b"`,
		`printf -v %[1]s v`, `printf -v "%[1]s[1]" v`, `mapfile %[1]s < set.sh`, `getopts a %[1]s -a`,
		`declare -n R=%[1]s; R=v`, `%[1]s=v true`, `select %[1]s in a; do break; done <<< 1`,
		`g() { local %[1]s=v; }; g`, `%[1]s+=v`, `[[ $(( %[1]s = 1 )) -gt 0 ]]`, `source set.sh`,
		`for (( %[1]s = 0; %[1]s < 2; %[1]s++ )); do :; done`,
		`g() { declare -g %[1]s=v; }; g`, `{ r=%[1]s; : ${!r:=v}; unset r; }`, `{ r='%[1]s[2]'; : ${!r:=v}; unset r; }`,
		`%[1]s=([k]+=v)`, `declare -i %[1]s=1+1`, `declare -A %[1]s; %[1]s[k]+=v`, `declare %[1]s`,
		`declare -a %[1]s=([k]=v [%[1]s]=w)`,
	}
	fuzzWrappers = []string{
		`%s`, `eval "%s"`, `( %s )`, `{ %s; }`, `bash -c "%s"`, `%s & wait`, `echo x | %s`,
		`x=$( %s )`, `if true; then %s; fi`, `f() { %s; }; f`, `while true; do %s; break; done`,
		`%s; %s`, `echo "$( %s )"`, `sh -c "%s"`,
	}
)

// writeFormLine builds a line from the input's first bytes: a form, up to
// two wrappers, a name.
func writeFormLine(input string) string {
	b := []byte(input + "\x00\x00\x00")
	form := fuzzWriteForms[int(b[0])%len(fuzzWriteForms)]
	line := fmt.Sprintf(form, fmt.Sprintf("BLOCK_%d", b[0]))
	for _, w := range b[1:3] {
		wrap := fuzzWrappers[int(w)%len(fuzzWrappers)]
		switch {
		case strings.Count(wrap, "%s") == 2:
			line = fmt.Sprintf(wrap, line, line)
		case strings.Contains(wrap, `"%s"`):
			line = fmt.Sprintf(wrap, strings.ReplaceAll(line, `"`, `\"`))
		default:
			line = fmt.Sprintf(wrap, line)
		}
	}
	return line
}

// freezeBlock refuses every write to a variable whose name starts with
// BLOCK, and has no opinion on any other.
type freezeBlock struct{}

func (freezeBlock) PreSession(ctx gate.SessionContext) gate.Decision {
	if strings.HasPrefix(ctx.Write.Key, "BLOCK") {
		return gate.Refuse("BLOCK variables are frozen")
	}
	return gate.NoOpinion()
}

// refusedNameListed reports whether a listing of declare -p, env and
// ${!BLOCK@} names a variable called BLOCK…; values may hold the text (a
// nameref's target, A=BLOCK), names may not.
func refusedNameListed(listing string) bool {
	for _, line := range strings.Split(listing, "\n") {
		if rest, ok := strings.CutPrefix(line, "names:"); ok {
			if strings.Contains(rest, "BLOCK") {
				return true
			}
			continue
		}
		if strings.HasPrefix(line, "declare ") {
			// declare -FLAGS NAME[=VALUE]
			fields := strings.SplitN(line, " ", 3)
			if len(fields) == 3 {
				line = fields[2]
			}
		}
		name, _, _ := strings.Cut(line, "=")
		if strings.HasPrefix(name, "BLOCK") {
			return true
		}
	}
	return false
}
