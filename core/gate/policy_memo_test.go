package gate_test

import (
	"errors"
	"fmt"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// G-6.3, G-8.1: within one command the door remembers a Starlark pre_ops
// answer for ops that agree on the fields the hook read — and only those:
// every answer below must be what the hook itself would say.
func TestPreOpsMemoAnswersLikeTheHook(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		code string
		ops  []vfs.Op
		deny []bool
	}{
		{"reads write only", "def pre_ops(ctx):\n    if ctx['op']['write']:\n        return {'deny': 'no'}\n",
			[]vfs.Op{read("/repo/a"), write("/repo/b"), read("/repo/c"), write("/repo/d")}, []bool{false, true, false, true}},
		{"silent for reads, then a write", "def pre_ops(ctx):\n    if ctx['op']['write']:\n        return {'deny': 'no'}\n",
			[]vfs.Op{read("/repo/a"), read("/repo/b"), read("/repo/c"), write("/repo/d"), read("/repo/e"), write("/repo/f"), write("/repo/g"), read("/repo/h")},
			[]bool{false, false, false, true, false, true, true, false}},
		{"silent for writes, then a read", "def pre_ops(ctx):\n    if not ctx['op']['write']:\n        return {'deny': 'no'}\n",
			[]vfs.Op{write("/repo/a"), write("/repo/b"), write("/repo/c"), read("/repo/d"), write("/repo/e"), read("/repo/f")},
			[]bool{false, false, false, true, false, true}},
		{"reads the path", "def pre_ops(ctx):\n    if ctx['op']['path'].endswith('.key'):\n        return 'deny'\n",
			[]vfs.Op{read("/repo/a.txt"), read("/repo/b.key"), read("/repo/c.txt"), read("/repo/b.key")}, []bool{false, true, false, true}},
		{"reads the path only for writes", "def pre_ops(ctx):\n    op = ctx['op']\n    if op['write'] and op['path'].startswith('/repo/config'):\n        return 'deny'\n",
			[]vfs.Op{read("/repo/config/x"), write("/repo/a"), write("/repo/config/y"), read("/repo/config/z"), write("/repo/config/w")}, []bool{false, false, true, false, true}},
		{"sees the op whole", "def pre_ops(ctx):\n    if ctx['op'].get('write'):\n        return 'deny'\n",
			[]vfs.Op{read("/repo/a"), write("/repo/b"), read("/repo/c")}, []bool{false, true, false}},
		{"reads a file", "def pre_ops(ctx):\n    if is_file(ctx['op']['path'] + '.lock'):\n        return 'deny'\n",
			[]vfs.Op{read("/repo/README.md"), read("/repo/README.md")}, []bool{false, false}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, _ := compileGuarded(t, "starlark", tc.code)
			cmd := line("/repo", "cat x", words("cat", "x"), "x")
			door := p.Door(&gate.OpScope{Command: &cmd})
			for i, op := range tc.ops {
				err := door.CheckOp(op)
				var re *vfs.RefusedError
				if got := errors.As(err, &re); got != tc.deny[i] {
					t.Errorf("op %d %+v: refused %v (%v), want %v", i, op, got, err, tc.deny[i])
				}
			}
		})
	}
}

// BenchmarkCheckOpStarlarkMemo: one command's ops through a hook that reads
// only op["write"] (the shape of the demo's freeze guard).
func BenchmarkCheckOpStarlarkMemo(b *testing.B) {
	p, _ := compileGuarded(b, "starlark", "def pre_ops(ctx):\n    if ctx['op']['write'] and ctx['op']['path'].startswith('/repo/config/'):\n        return {'deny': 'frozen'}\n")
	cmd := line("/repo", "grep -r x .", words("grep", "-r", "x", "."), ".")
	door := p.Door(&gate.OpScope{Command: &cmd})
	op := read("/repo/README.md")
	b.ReportAllocs()
	for b.Loop() {
		if err := door.CheckOp(op); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckOpStarlarkSiblings: grep over a directory's files, the
// find line's shape (G-14): rules through the directory facts, pre_ops
// through the memo.
func BenchmarkCheckOpStarlarkSiblings(b *testing.B) {
	p, _ := compileGuarded(b, "starlark", "def pre_ops(ctx):\n    if ctx['op']['write'] and ctx['op']['path'].startswith('/repo/config/'):\n        return {'deny': 'frozen'}\n")
	cmd := line("/repo", "grep -r x .", words("grep", "-r", "x", "."), ".")
	door := p.Door(&gate.OpScope{Command: &cmd})
	ops := make([]vfs.Op, 64)
	for i := range ops {
		ops[i] = read(fmt.Sprintf("/repo/src/file%03d.go", i))
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := door.CheckOp(ops[i%len(ops)]); err != nil {
			b.Fatal(err)
		}
	}
}
