package demo

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/core"
	"gatehouse/core/gate"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/NAME.golden (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./demo -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// G-15.1: the permissions table is pinned.
func TestPermissionsGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Permissions(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	golden(t, "permissions", b.Bytes())
}

// G-11.1: for every row of the demo, explain predicts the refused command's
// stderr and exit code byte for byte.
func TestPermissionsExplainMatchesExec(t *testing.T) {
	ws, err := LoadPermissions()
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	for _, row := range PermissionRows {
		s, err := ws.CreateSession(row.Role, core.Profile(row.Role))
		if err != nil {
			t.Fatal(err)
		}
		exps, err := s.Explain(row.Line)
		if err != nil {
			t.Fatal(err)
		}
		res := s.Execute(context.Background(), row.Line)
		for _, e := range exps {
			switch e.Outcome {
			case gate.Deny, gate.Ask, gate.NotFound, gate.Hidden:
				if !bytes.Contains([]byte(res.Stderr), []byte(e.Stderr)) || e.Stderr == "" {
					t.Errorf("%s: %q: explain stderr %q not what exec printed %q", row.Role, row.Line, e.Stderr, res.Stderr)
				}
				if len(exps) == 1 && e.ExitCode != res.ExitCode {
					t.Errorf("%s: %q: explain exit %d, exec exit %d", row.Role, row.Line, e.ExitCode, res.ExitCode)
				}
			}
		}
	}
}

// G-15.3: the ask demos are pinned.
func TestAskGolden(t *testing.T) {
	var b bytes.Buffer
	if err := Ask(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	golden(t, "ask", b.Bytes())
}

func TestAskPendingGolden(t *testing.T) {
	var b bytes.Buffer
	if err := AskPending(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	golden(t, "ask-pending", b.Bytes())
}
