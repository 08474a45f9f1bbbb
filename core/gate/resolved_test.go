package gate

import (
	"strings"
	"sync/atomic"
	"testing"

	"gatehouse/core/vfs"
)

// fakeResolver stands for a session's view in Judge's questions: links
// maps a symlink's own path to the path it leads to, present lists what
// exists (directories included).
type fakeResolver struct {
	links   map[string]string
	present map[string]bool
}

func (r fakeResolver) Resolve(p string, follow bool) string {
	for hops := 0; hops < 40; hops++ {
		comps := strings.Split(strings.TrimPrefix(p, "/"), "/")
		moved := false
		for i := range comps {
			prefix := "/" + strings.Join(comps[:i+1], "/")
			last := i == len(comps)-1
			if target, ok := r.links[prefix]; ok && (!last || follow) {
				p = cleanAbs(target + "/" + strings.Join(comps[i+1:], "/"))
				moved = true
				break
			}
		}
		if !moved {
			return p
		}
	}
	return p
}

func (r fakeResolver) Presence(p string) Presence {
	switch {
	case r.present[p]:
		return Present
	case r.present[dirOf(p)]:
		return Creatable
	}
	return Absent
}

// resolvedProfile: a command-scoped deny, a deny and an ask with hidden
// names inside them, and a mount whose command rules refuse rm.
func resolvedProfile(t testing.TB, opts ...CompileOption) *Profile {
	t.Helper()
	p, err := Compile(ProfileSpec{Name: "t",
		Deny: []Rule{
			{Reason: "no ls of team", Commands: []string{"ls"}, Paths: []string{"/d/team"}},
			{Reason: "denied here", Paths: []string{"/d/den"}},
		},
		Ask:  []Rule{{Reason: "asks", Paths: []string{"/d/ask"}, Source: "ask-rule"}},
		Hide: []PathGroup{{Paths: []string{"/d/den/h*", "/d/ask/h*", "/d/open/h*", "/d/hid"}}},
		Mounts: map[string]MountRules{
			"/repo": {Deny: []Rule{{Reason: "no removals in the repo", Commands: []string{"rm"}}}},
			"/d":    {Ask: []Rule{{Reason: "touching d is asked", Commands: []string{"chmod"}}}},
		},
	}, []Mount{{Prefix: "/d"}, {Prefix: "/repo"}, {Prefix: "/tmp"}}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var resolvedWorld = fakeResolver{
	links: map[string]string{
		"/tmp/s":      "/d/team",
		"/tmp/l":      "/d/den/f",
		"/tmp/r":      "/repo",
		"/tmp/plain":  "/d/plain",
		"/tmp/toask":  "/d/ask/a",
		"/tmp/tohid":  "/d/hid/x",
		"/tmp/gone":   "/d/den/nothere",
		"/d/den/link": "/d/plain",
	},
	present: map[string]bool{
		"/d": true, "/d/team": true, "/d/team/pub": true, "/d/den": true, "/d/den/f": true, "/d/ask": true, "/d/ask/a": true,
		"/d/plain": true, "/repo": true, "/repo/x": true, "/tmp": true, "/d/open": true, "/d/hid": true,
		"/d/den/link": true,
	},
}

// Judge follows symlinks (G-6.1a) and asks whether a refused path is there
// (G-4.5): a link is judged as its target, a command-scoped rule and a
// mount's command rules included; a missing name under a deny answers like a
// hidden one; creating a name, hidden or not, under a deny is refused.
func TestJudgeResolvedPaths(t *testing.T) {
	t.Parallel()
	p := resolvedProfile(t)
	op := func(path string) Operand { return Operand{Arg: path, Path: path} }
	wop := func(path string) Operand { return Operand{Arg: path, Path: path, Write: true} }
	tests := []struct {
		name     string
		cwd      string
		argv     []string
		operands []Operand
		want     Outcome
		path     string // the refusal's path
		policy   string
	}{
		{"a link to a command-scoped deny is judged as its target", "/", words("ls", "/tmp/s"), []Operand{op("/tmp/s")}, Deny, "/d/team", ""},
		{"below such a link too", "/", words("ls", "/tmp/s/pub"), []Operand{op("/tmp/s/pub")}, Deny, "/d/team/pub", ""},
		{"the same link for another command", "/", words("cat", "/tmp/s/x"), []Operand{op("/tmp/s/x")}, Run, "", ""},
		{"a link to a denied file", "/", words("cat", "/tmp/l"), []Operand{op("/tmp/l")}, Deny, "/d/den/f", ""},
		{"a link to an asked file asks", "/", words("cat", "/tmp/toask"), []Operand{op("/tmp/toask")}, Ask, "/d/ask/a", ""},
		{"a link into a hidden directory", "/", words("cat", "/tmp/tohid"), []Operand{op("/tmp/tohid")}, Hidden, "", ""},
		{"a dangling link to a missing denied name", "/", words("cat", "/tmp/gone"), []Operand{op("/tmp/gone")}, Run, "", ""},
		{"a link's own path is judged too", "/", words("cat", "/d/den/link"), []Operand{op("/d/den/link")}, Deny, "/d/den/link", ""},
		{"reading a missing name under a deny runs", "/", words("cat", "/d/den/nothere"), []Operand{op("/d/den/nothere")}, Run, "", ""},
		{"reading a hidden name under a deny is hidden", "/", words("cat", "/d/den/hx"), []Operand{op("/d/den/hx")}, Hidden, "", ""},
		{"reading a missing name under an ask runs", "/", words("cat", "/d/ask/nothere"), []Operand{op("/d/ask/nothere")}, Run, "", ""},
		{"reading a present name under an ask asks", "/", words("cat", "/d/ask/a"), []Operand{op("/d/ask/a")}, Ask, "/d/ask/a", ""},
		{"creating a name under a deny is denied", "/", words("touch", "/d/den/new"), []Operand{wop("/d/den/new")}, Deny, "/d/den/new", ""},
		{"creating a hidden name under a deny is denied alike", "/", words("touch", "/d/den/hx"), []Operand{wop("/d/den/hx")}, Deny, "/d/den/hx", ""},
		{"removing a hidden name under a deny is denied alike", "/", words("rm", "/d/den/hx"), []Operand{wop("/d/den/hx")}, Deny, "/d/den/hx", ""},
		{"creating a hidden name under an ask asks alike", "/", words("touch", "/d/ask/hx"), []Operand{wop("/d/ask/hx")}, Ask, "/d/ask/hx", ""},
		{"creating a hidden name where nothing refuses is hidden", "/", words("touch", "/d/open/hx"), []Operand{wop("/d/open/hx")}, Hidden, "", ""},
		{"creating below a missing directory under a deny runs", "/", words("touch", "/d/den/nodir/x"), []Operand{wop("/d/den/nodir/x")}, Run, "", ""},
		{"creating below a hidden directory under a deny is hidden", "/", words("touch", "/d/den/hx/x"), []Operand{wop("/d/den/hx/x")}, Hidden, "", ""},
		{"a cwd reached through a link counts as that mount", "/tmp/r", words("rm", "x"), []Operand{wop("x")}, Deny, "", "mount:/repo"},
		{"an operand through a link counts as that mount", "/", words("rm", "/tmp/r/x"), []Operand{wop("/tmp/r/x")}, Deny, "", "mount:/repo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := Command{Argv: tt.argv, Cwd: tt.cwd, Operands: tt.operands, Resolver: resolvedWorld}
			v := p.Judge(c)
			if v.Outcome != tt.want {
				t.Fatalf("Judge(%q) = %s %+v, want %s", tt.argv, v.Outcome, v.Refusal, tt.want)
			}
			if tt.path != "" && (v.Refusal == nil || v.Refusal.Path != tt.path) {
				t.Errorf("refusal = %+v, want path %s", v.Refusal, tt.path)
			}
			if tt.policy != "" && (v.Refusal == nil || v.Refusal.Policy != tt.policy || v.Refusal.Scope != ScopeCommand) {
				t.Errorf("refusal = %+v, want command scope from %s", v.Refusal, tt.policy)
			}
		})
	}
}

// Without a Resolver, Judge reads paths as spelled, as before.
func TestJudgeWithoutResolver(t *testing.T) {
	t.Parallel()
	p := resolvedProfile(t)
	if v := p.Judge(cmd("/", words("ls", "/tmp/s"), "/tmp/s")); v.Outcome != Run {
		t.Errorf("ls /tmp/s = %s, want run", v.Outcome)
	}
	if v := p.Judge(cmd("/", words("cat", "/d/den/nothere"), "/d/den/nothere")); v.Outcome != Deny {
		t.Errorf("cat /d/den/nothere = %s, want deny", v.Outcome)
	}
}

// A link's target is not trusted as a cleared operand: the door resolves
// it again (Verdict.Cleared).
func TestJudgeClearsOnlyOperandsLeadingToThemselves(t *testing.T) {
	t.Parallel()
	p := resolvedProfile(t)
	c := Command{Argv: words("cat", "/tmp/plain", "/d/plain"), Cwd: "/", Resolver: resolvedWorld,
		Operands: []Operand{{Arg: "/tmp/plain", Path: "/tmp/plain"}, {Arg: "/d/plain", Path: "/d/plain"}}}
	v := p.Judge(c)
	if v.Outcome != Run || v.Cleared.Has(0) || !v.Cleared.Has(1) {
		t.Errorf("Judge = %s, cleared %v %v; want run, only the second cleared", v.Outcome, v.Cleared.Has(0), v.Cleared.Has(1))
	}
}

// The door holds a command's command-scoped path rules and its mounts'
// command rules on the path each op really reaches, whatever led there: a
// symlink, or a recursive walk from a directory above (G-6.1a, G-5.3).
func TestDoorCommandRules(t *testing.T) {
	t.Parallel()
	p := resolvedProfile(t)
	scope := func(argv ...string) *OpScope {
		return &OpScope{Command: &Command{Argv: argv, Cwd: "/"}}
	}
	granted := scope("chmod", "x")
	granted.Granted = true
	in := func(op vfs.Op, prefix string) vfs.Op { op.Prefix = prefix; return op }
	tests := []struct {
		name  string
		scope *OpScope
		op    vfs.Op
		want  string
	}{
		{"ls may not list the team", scope("ls", "-R", "/d"), in(readDir("/d/team"), "/d"), "refused: no ls of team"},
		{"nor anything below it", scope("ls", "-R", "/d"), in(readDir("/d/team/pub"), "/d"), "refused: no ls of team"},
		{"ls may stat it", scope("ls", "-R", "/d"), in(stat("/d/team"), "/d"), "pass"},
		{"cat may read it", scope("cat", "/d/team/x"), in(read("/d/team/x"), "/d"), "pass"},
		{"a door without a command ignores it", nil, in(readDir("/d/team"), "/d"), "pass"},
		{"rm may not remove inside the repo", scope("rm", "-r", "/tmp/r/"), in(remove("/repo/x"), "/repo"), "refused: no removals in the repo"},
		{"rm may remove elsewhere", scope("rm", "-r", "/tmp/r/"), in(remove("/tmp/x"), "/tmp"), "pass"},
		{"a mount's ask refuses at the door", scope("chmod", "x"), in(chmod("/d/x"), "/d"), "refused: touching d is asked"},
		{"an answered mount ask passes", granted, in(chmod("/d/x"), "/d"), "pass"},
		{"a listing check never refuses", scope("rm", "-r", "/"), vfs.Op{Name: vfs.OpStat, Path: "/repo", Prefix: "/repo", Listing: true}, "pass"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := errKind(p.Door(tt.scope).CheckOp(tt.op)); got != tt.want {
				t.Errorf("CheckOp(%+v) = %s, want %s", tt.op, got, tt.want)
			}
		})
	}
}

// A command-scoped rule deeper than a hide never makes the hidden path
// visible to its command (G-4.5 over G-4.4).
func TestCommandScopedRulesNeverUnhide(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Hide: []PathGroup{{Paths: []string{"/d/hid"}}},
		Deny: []Rule{{Reason: "no ls here", Commands: []string{"ls"}, Paths: []string{"/d/hid/x"}}},
	}, []Mount{{Prefix: "/d"}})
	ls := &OpScope{Command: &Command{Argv: words("ls", "/d/hid/x"), Cwd: "/"}}
	if got := errKind(p.Door(ls).CheckOp(stat("/d/hid/x"))); got != "ENOENT" {
		t.Errorf("door: stat = %s, want ENOENT", got)
	}
	if v := p.Judge(cmd("/", words("ls", "/d/hid/x"), "/d/hid/x")); v.Outcome != Hidden {
		t.Errorf("Judge = %s, want hidden", v.Outcome)
	}
}

// Under a deny or an unanswered ask, a hidden name answers every op as a
// missing name does: ENOENT unless the op creates it, and then the refusal
// every new name meets there (G-4.5); elsewhere creating a hidden name is
// EACCES (G-4.11).
func TestDoorHiddenNamesUnderRefusals(t *testing.T) {
	t.Parallel()
	p := resolvedProfile(t)
	granted := &OpScope{Granted: true}
	refusedHidden := &OpScope{Refused: []OperandRefusal{{
		Operand: Operand{Arg: "/d/den/hx", Path: "/d/den/hx", Write: true},
		Refusal: &Refusal{Kind: "deny", Reason: "denied here", Scope: ScopeOperand, Path: "/d/den/hx"},
	}}}
	tests := []struct {
		name  string
		scope *OpScope
		op    vfs.Op
		want  string
	}{
		{"creating a new name under a deny", nil, create("/d/den/new"), "refused: denied here"},
		{"creating a hidden name under a deny", nil, create("/d/den/hx"), "refused: denied here"},
		{"mkdir of a hidden name under a deny", nil, mkdir("/d/den/hx"), "refused: denied here"},
		{"reading a hidden name under a deny", nil, read("/d/den/hx"), "ENOENT"},
		{"removing a hidden name under a deny", nil, remove("/d/den/hx"), "ENOENT"},
		{"creating below a hidden name under a deny", nil, create("/d/den/hx/y"), "ENOENT"},
		{"creating a hidden name under an ask", nil, create("/d/ask/hx"), "refused: asks"},
		{"creating it once the ask is answered", granted, create("/d/ask/hx"), "EACCES"},
		{"creating a hidden name where nothing refuses", nil, create("/d/open/hx"), "EACCES"},
		{"a refused operand that is hidden: removing", refusedHidden, remove("/d/den/hx"), "ENOENT"},
		{"a refused operand that is hidden: creating", refusedHidden, create("/d/den/hx"), "refused: denied here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := errKind(p.Door(tt.scope).CheckOp(tt.op)); got != tt.want {
				t.Errorf("CheckOp(%+v) = %s, want %s", tt.op, got, tt.want)
			}
		})
	}
}

// A link in one ask rule's files leading into another's is read at both
// paths: the verdict names both questions, each at its own path (G-4.10,
// G-6.1a); a deny on either path refuses alone.
func TestJudgeLinkBetweenTwoAsks(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "t",
		Ask:  []Rule{{Reason: "A", Paths: []string{"/d/a"}, Source: "a"}, {Reason: "B", Paths: []string{"/d/b"}, Source: "b"}},
		Deny: []Rule{{Reason: "C", Paths: []string{"/d/c"}, Source: "c"}},
	}, []Mount{{Prefix: "/d"}})
	world := fakeResolver{
		links:   map[string]string{"/d/a/to-b": "/d/b/y", "/d/a/to-c": "/d/c/y", "/d/a/to-a": "/d/a/x"},
		present: map[string]bool{"/d/a": true, "/d/b": true, "/d/c": true, "/d/b/y": true, "/d/c/y": true, "/d/a/x": true},
	}
	judge := func(p0 string) Verdict {
		return p.Judge(Command{Argv: words("cat", p0), Cwd: "/", Resolver: world, Operands: []Operand{{Arg: p0, Path: p0}}})
	}
	var got []string
	for _, a := range judge("/d/a/to-b").Asks {
		got = append(got, a.Reason+" "+a.Path)
	}
	if want := []string{"B /d/b/y", "A /d/a/to-b"}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("asks = %q, want %q", got, want)
	}
	if v := judge("/d/a/to-c"); v.Outcome != Deny || v.Refusal.Reason != "C" {
		t.Errorf("a link into a denied path = %s %+v, want deny C", v.Outcome, v.Refusal)
	}
	if v := judge("/d/a/to-a"); len(v.Asks) != 2 || v.Asks[0].Path != "/d/a/x" || v.Asks[1].Path != "/d/a/to-a" {
		t.Errorf("a link within one rule = %+v, want its question at both paths", v.Asks)
	}
}

// opCounter is a coded pre_ops hook that counts the ops it is asked about.
type opCounter struct{ n *atomic.Int64 }

func (c opCounter) PreOps(OpContext) Decision { c.n.Add(1); return NoOpinion() }

// The gate's own lookups (Profile.Resolver) are not the session's ops: no
// pre_ops hook is asked about them, so a hook neither pays for nor sways
// them (G-8.3).
func TestResolverAsksNoHook(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	fsys, err := vfs.New([]vfs.MountSpec{{Prefix: "/d", Files: map[string]string{"den/f": "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	if err := fsys.View(nil).Symlink("/d/den/f", "/d/link"); err != nil {
		t.Fatal(err)
	}
	p, err := Compile(ProfileSpec{Name: "t", Deny: []Rule{{Reason: "r", Paths: []string{"/d/den"}}}},
		[]Mount{{Prefix: "/d"}}, WithPolicies(opCounter{&n}), WithFS(fsys))
	if err != nil {
		t.Fatal(err)
	}
	v := p.Judge(Command{Argv: words("cat", "/d/link"), Cwd: "/", Resolver: p.Resolver(fsys),
		Operands: []Operand{{Arg: "/d/link", Path: "/d/link"}}})
	if v.Outcome != Deny || v.Refusal.Path != "/d/den/f" {
		t.Errorf("Judge = %s %+v, want the deny at the link's target", v.Outcome, v.Refusal)
	}
	if n.Load() != 0 {
		t.Errorf("the resolver asked the pre_ops hook %d times", n.Load())
	}
}
