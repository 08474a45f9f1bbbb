package gate_test

import (
	"strings"
	"testing"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// A pre_ops hook shaped like a real one: read the op, compare a prefix.
var benchPreOps = twin{`
def pre_ops(ctx):
    op = ctx["op"]
    if op["write"] and op["path"].startswith("/repo/config/"):
        return {"deny": "config is frozen during the incident"}
    return None
`, `
function preOps(ctx) {
  var op = ctx.op;
  if (op.write && op.path.indexOf("/repo/config/") === 0) { return {deny: "config is frozen during the incident"}; }
  return null;
}
`}

// benchOps are the ops a typical command makes; none is refused, so the
// hook runs to its end every time.
var benchOps = []vfs.Op{
	{Name: vfs.OpOpen, Path: "/repo/README.md", Prefix: "/repo"},
	{Name: vfs.OpStat, Path: "/repo/config/creds.env", Prefix: "/repo"},
	{Name: vfs.OpOpen, Path: "/repo/notes/today.md", Write: true, Create: true, Prefix: "/repo"},
	{Name: vfs.OpReadDir, Path: "/repo", Prefix: "/repo"},
}

var benchCommand = line("/repo", "grep -r TODO README.md notes",
	words("grep", "-r", "TODO", "README.md", "notes"), "README.md", "notes")

// benchCheckOp measures the door's cost per op with a pre_ops hook (G-6.3).
func benchCheckOp(b *testing.B, engine string, opts ...gate.CompileOption) {
	code := ""
	if engine != "" {
		code = benchPreOps.code(engine)
	}
	p, _ := compileGuarded(b, engine, code, opts...)
	door := p.Door(&gate.OpScope{Command: &benchCommand})
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := door.CheckOp(benchOps[i%len(benchOps)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckOpNoPolicy(b *testing.B)   { benchCheckOp(b, "") }
func BenchmarkCheckOpStarlark(b *testing.B)   { benchCheckOp(b, "starlark") }
func BenchmarkCheckOpJavaScript(b *testing.B) { benchCheckOp(b, "javascript") }
func BenchmarkCheckOpCoded(b *testing.B)      { benchCheckOp(b, "", gate.WithPolicies(frozenOps{})) }

// BenchmarkCheckOpParallel shows the pooled interpreters serving every
// goroutine at once.
func BenchmarkCheckOpParallel(b *testing.B) {
	for _, engine := range engines {
		b.Run(engine, func(b *testing.B) {
			p, _ := compileGuarded(b, engine, benchPreOps.code(engine))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				door := p.Door(&gate.OpScope{Command: &benchCommand})
				for i := 0; pb.Next(); i++ {
					_ = door.CheckOp(benchOps[i%len(benchOps)])
				}
			})
		})
	}
}

// BenchmarkJudgeProgram is one pre_command call on top of the rules.
func BenchmarkJudgeProgram(b *testing.B) {
	program := twin{
		"def pre_command(ctx):\n    if ctx[\"command\"] == \"curl\":\n        return {\"deny\": \"no\"}\n    return None\n",
		"function preCommand(ctx) { if (ctx.command === \"curl\") { return {deny: \"no\"}; } return null; }",
	}
	for _, engine := range engines {
		b.Run(engine, func(b *testing.B) {
			p, _ := compileGuarded(b, engine, program.code(engine))
			b.ReportAllocs()
			for b.Loop() {
				_ = p.Judge(benchCommand)
			}
		})
	}
}

// frozenOps is benchPreOps written in Go.
type frozenOps struct{}

func (frozenOps) PreOps(ctx gate.OpContext) gate.Decision {
	if ctx.Op.Write && strings.HasPrefix(ctx.Op.Path, "/repo/config/") {
		return gate.Refuse(reasonFrozen)
	}
	return gate.NoOpinion()
}
