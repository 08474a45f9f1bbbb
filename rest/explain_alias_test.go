package rest

import (
	"testing"

	"gatehouse/core"
)

// TestExplainSeesSessionAliases: explain reads a line through the aliases
// the session's earlier lines defined, as the run does, and predicts the
// run's verdict (G-2.3, G-11.1).
func TestExplainSeesSessionAliases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, define, line string
		wantArgv0          string
	}{
		{name: "an alias of a refused write", define: "alias x=rm", line: "x notes.txt", wantArgv0: "rm"},
		{name: "an alias with words of its own", define: "alias x='rm -f'", line: "x notes.txt", wantArgv0: "rm"},
		{name: "a blank-ended alias expands the next word too", define: "alias n='nice ' x=rm", line: "n x notes.txt", wantArgv0: "nice"},
		{name: "an alias of a read the profile allows", define: "alias show=cat", line: "show notes.txt", wantArgv0: "cat"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newDaemon(t)
			sid := d.newSession(t, "agent-a", "guarded")
			if res := d.execute(t, sid, tc.define, true); res.ExitCode != 0 {
				t.Fatalf("%s: %+v", tc.define, res)
			}
			r := d.call(t, "POST", "/v1/sessions/"+sid+"/explain", "", lineJSON(tc.line))
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			var exps []core.Explanation
			r.decode(t, &exps)
			if len(exps) == 0 || len(exps[0].Argv) == 0 || exps[0].Argv[0] != tc.wantArgv0 {
				t.Fatalf("explanations %+v, want the alias's command %s", exps, tc.wantArgv0)
			}
			last := exps[len(exps)-1]
			res := d.execute(t, sid, tc.line, true)
			if last.ExitCode != res.ExitCode || last.Stderr != res.Stderr {
				t.Errorf("explain says exit %d %q; the run gave exit %d %q", last.ExitCode, last.Stderr, res.ExitCode, res.Stderr)
			}
		})
	}
}
