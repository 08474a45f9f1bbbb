package gate

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"gatehouse/core/vfs"
)

// dirFactsPatterns are the path patterns the random profiles draw from:
// literals, globs, "**" and ties at one anchor, over a small alphabet so
// that random paths hit them often.
var dirFactsPatterns = []string{
	"/a", "/a/b", "/a/*", "/a/*/c", "/a/*/*/c", "/a/b/*.x", "/a/b/c?", "/*/b",
	"/**/c", "/a/**", "/a/**/b", "/b/**/c/*", "/a/b/c/d", "/b", "/b/c/*/a", "/c/*",
	"/a/c", "/b/*/*", "/a/b/c", "/c/a/b.x", "/*", "/*/*/*.x",
}

// randomDirFactsSpec builds a profile of random hides, shows (some ro),
// path denies and asks (some scoped to a command), on mounts /a (ro) and
// /b/c.
func randomDirFactsSpec(r *rand.Rand) ProfileSpec {
	pick := func() string { return dirFactsPatterns[r.IntN(len(dirFactsPatterns))] }
	spec := ProfileSpec{Name: "random"}
	for range r.IntN(4) {
		spec.Hide = append(spec.Hide, PathGroup{Paths: []string{pick()}, Reason: "hidden"})
	}
	for range r.IntN(3) {
		mode := ""
		if r.IntN(2) == 0 {
			mode = "ro"
		}
		spec.Show = append(spec.Show, ShowEntry{Path: pick(), Mode: mode})
	}
	for range r.IntN(4) {
		rule := Rule{Reason: "no", Paths: []string{pick()}}
		if r.IntN(3) == 0 {
			rule.Commands = []string{"cat"}
		}
		if r.IntN(2) == 0 {
			spec.Deny = append(spec.Deny, rule)
		} else {
			spec.Ask = append(spec.Ask, rule)
		}
	}
	return spec
}

// randomPaths returns sorted paths over the alphabet, so runs of siblings
// come in a row as they do from find, ls and xargs.
func randomPaths(r *rand.Rand, n int) []string {
	names := []string{"a", "b", "c", "d", "b.x", "c1", ".x"}
	var out []string
	for range n {
		p := ""
		for range 1 + r.IntN(5) {
			p += "/" + names[r.IntN(len(names))]
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// G-14 with G-4: the sibling cache is an answer cache only. For random
// profiles and runs of paths, every op through a door gets the answer the
// full resolution gives, and every command the same verdict.
func TestDirFactsAgreeWithResolution(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ops := []string{vfs.OpStat, vfs.OpOpen, vfs.OpReadDir, vfs.OpRemove}
	for round := range 400 {
		spec := randomDirFactsSpec(r)
		p, err := Compile(spec, []Mount{{Prefix: "/a", ReadOnly: true}, {Prefix: "/b/c"}})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		paths := randomPaths(r, 60)
		for _, argv := range [][]string{{"cat"}, {"ls"}} {
			c := Command{Argv: argv, Cwd: "/a"}
			for _, path := range paths {
				c.Operands = append(c.Operands, Operand{Arg: path, Path: path})
			}
			// Relative operands are taken from the cwd, here /a.
			for _, rel := range []string{"b", "b/c", "c", "b/b.x", "c1"} {
				c.Operands = append(c.Operands, Operand{Arg: rel, Path: rel})
			}
			// The fast door also trusts Judge's cleared operands.
			fast := p.Door(&OpScope{Command: &c, Cleared: p.Judge(c).Cleared})
			var want, got []string
			for _, path := range paths {
				for _, name := range ops {
					op := vfs.Op{Name: name, Path: path, Write: name == vfs.OpRemove}
					got = append(got, fmt.Sprint(fast.CheckOp(op)))
				}
			}
			vFast := p.Judge(c)
			var dirs []string
			for _, path := range paths {
				if dir, ok := splitChild(path); ok && !slices.Contains(dirs, dir) {
					dirs = append(dirs, dir)
				}
			}
			dirs = append(dirs, "/")
			listed := func(door vfs.Door) (out []string) {
				for _, dir := range dirs {
					hidden := door.(vfs.ListingDoor).Hider(dir)
					for _, name := range []string{"a", "b", "c", "d", "b.x", "c1", ".x"} {
						h := hidden != nil && hidden(name)
						if hidden == nil || !useDirFacts {
							// nil promises no entry is hidden: check it.
							err := door.CheckOp(vfs.Op{Name: vfs.OpStat, Path: joinDir(dir, name), Listing: true})
							if hidden == nil && errors.Is(err, vfs.ErrHidden) {
								t.Fatalf("round %d: Hider(%s) said none hidden, but %s is", round, dir, name)
							}
						}
						out = append(out, fmt.Sprint(dir, " ", name, " ", h))
					}
				}
				return out
			}
			lFast := listed(fast)
			useDirFacts = false
			slow := p.Door(&OpScope{Command: &c})
			for _, path := range paths {
				for _, name := range ops {
					op := vfs.Op{Name: name, Path: path, Write: name == vfs.OpRemove}
					want = append(want, fmt.Sprint(slow.CheckOp(op)))
				}
			}
			vSlow := p.Judge(c)
			lSlow := listed(p.Door(&OpScope{Command: &c}))
			useDirFacts = true
			if !slices.Equal(lFast, lSlow) {
				t.Fatalf("round %d: listing hides\n%v\nwant\n%v", round, lFast, lSlow)
			}
			if !slices.Equal(got, want) {
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("round %d %v: op %s on %s: cached %q, resolved %q\nspec %+v",
							round, argv, ops[i%len(ops)], paths[i/len(ops)], got[i], want[i], spec)
					}
				}
			}
			if !reflect.DeepEqual(vFast, vSlow) {
				t.Fatalf("round %d %v: cached verdict %+v, resolved %+v\nspec %+v", round, argv, vFast, vSlow, spec)
			}
		}
	}
}

// G-14: a door is shared by a command's goroutines (a pipeline stage's
// readers, xargs -P). Concurrent ops on different directories through one
// door's directory cache get the answers a fresh door gives each alone.
func TestDirFactsConcurrentDoor(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "c",
		Hide: []PathGroup{{Paths: []string{"/a/*/.git", "/b/secret"}}},
		Deny: []Rule{{Reason: "no", Paths: []string{"/a/x/*.key"}}},
	}, []Mount{{Prefix: "/a"}, {Prefix: "/b", ReadOnly: true}})
	names := []string{"f1", ".git", "k.key", "secret", "plain"}
	dirs := []string{"/a/x", "/a/y", "/b", "/a"}
	want := map[string]string{}
	for _, dir := range dirs {
		for _, n := range names {
			path := joinDir(dir, n)
			want[path] = fmt.Sprint(p.Door(nil).CheckOp(vfs.Op{Name: vfs.OpOpen, Path: path, Write: true}))
		}
	}
	distinct := map[string]bool{}
	for _, w := range want {
		distinct[w] = true
	}
	if len(distinct) < 4 { // passes, hidden, read-only, refused
		t.Fatalf("the profile decides too little to test: %v", distinct)
	}
	door := p.Door(nil)
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			for i := range 2000 {
				dir := dirs[(g+i/7)%len(dirs)]
				path := joinDir(dir, names[i%len(names)])
				if got := fmt.Sprint(door.CheckOp(vfs.Op{Name: vfs.OpOpen, Path: path, Write: true})); got != want[path] {
					errs <- fmt.Sprintf("%s: %s, want %s", path, got, want[path])
					return
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// OperandSet holds marks past the first 64 operands, where xargs puts most
// of a grep's, and nothing beyond the command's operands.
func TestOperandSet(t *testing.T) {
	t.Parallel()
	var s OperandSet
	for _, i := range []int{0, 63, 64, 127, 128, 4095} {
		s.add(i, 4096)
	}
	for i := range 4097 {
		want := i == 0 || i == 63 || i == 64 || i == 127 || i == 128 || i == 4095
		if s.Has(i) != want {
			t.Errorf("Has(%d) = %v, want %v", i, s.Has(i), want)
		}
	}
	if s.Has(-1) {
		t.Error("Has(-1) = true")
	}
}

// G-14 with G-4: a door trusts Judge's cleared operands only for reads of
// exactly those paths, in the order a utility reaches them; every other op
// is resolved as before.
func TestDoorTrustsClearedOperands(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, ProfileSpec{Name: "c",
		Hide: []PathGroup{{Paths: []string{"/a/*/.git"}}},
		Deny: []Rule{{Reason: "no keys", Paths: []string{"/a/x/*.key"}}},
	}, []Mount{{Prefix: "/a"}, {Prefix: "/b", ReadOnly: true}})
	paths := []string{"/a/x/f", "/a/x/.git", "/a/x/k.key", "/b/y", "rel"}
	c := Command{Argv: words("cat"), Cwd: "/b"}
	for _, path := range paths {
		c.Operands = append(c.Operands, Operand{Arg: path, Path: path})
	}
	v := p.Judge(c)
	for i, want := range []bool{true, false, false, true, false} {
		if v.Cleared.Has(i) != want {
			t.Errorf("operand %s cleared = %v, want %v", paths[i], v.Cleared.Has(i), want)
		}
	}
	trusting := p.Door(&OpScope{Command: &c, Cleared: v.Cleared, Refused: v.OperandRefusals})
	plain := p.Door(&OpScope{Command: &c, Refused: v.OperandRefusals})
	ops := []vfs.Op{
		{Name: vfs.OpOpen, Path: "/a/x/f"},
		{Name: vfs.OpStat, Path: "/a/x/f"}, // the same operand again
		{Name: vfs.OpOpen, Path: "/a/x/.git"},
		{Name: vfs.OpOpen, Path: "/a/x/k.key"},
		{Name: vfs.OpOpen, Path: "/b/y", Write: true}, // a write is never trusted: EROFS
		{Name: vfs.OpOpen, Path: "/b/y"},
		{Name: vfs.OpOpen, Path: "/a/z/.git"}, // no operand
		{Name: vfs.OpOpen, Path: "/b/rel"},
	}
	for _, op := range ops {
		if got, want := fmt.Sprint(trusting.CheckOp(op)), fmt.Sprint(plain.CheckOp(op)); got != want {
			t.Errorf("%s %s (write %v): trusting door %s, plain door %s", op.Name, op.Path, op.Write, got, want)
		}
	}
}
