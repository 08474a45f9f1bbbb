package oilstest

import (
	"strings"
	"testing"
)

// TestParseSpecFile reads a small file in the suite's format, written
// here, so the reader is checked where the suite is absent (CI).
func TestParseSpecFile(t *testing.T) {
	t.Parallel()
	text := strings.Join([]string{
		"## compare_shells: bash dash",
		"",
		"#### one line each",
		"echo a",
		"## stdout: a",
		"",
		"#### several lines, a comment and a blank line in the code",
		"echo b",
		"  # dropped, as the suite's runner drops it",
		"",
		"echo c; exit 3",
		"## status: 3",
		"## STDOUT:",
		"b",
		"",
		"c",
		"## END",
		"## BUG dash/mksh STDOUT:",
		"x",
		"## END",
		"## N-I bash status: 2",
		"",
		"#### json",
		"printf x",
		`## stdout-json: "x"`,
		"## OK bash stdout-json: \"\"",
		"",
	}, "\n")
	cases, err := parseSpecFile(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 3 {
		t.Fatalf("got %d cases, want 3", len(cases))
	}
	second := cases[1]
	if second.Code != "echo b\n\necho c; exit 3\n" {
		t.Errorf("code = %q", second.Code)
	}
	bash := second.For("bash")
	if bash.Qualifier != "N-I" || *bash.Status != 2 || *bash.Stdout != "b\n\nc\n" {
		t.Errorf("bash wants %q %d %q", bash.Qualifier, *bash.Status, *bash.Stdout)
	}
	dash := second.For("dash")
	if dash.Qualifier != "BUG" || *dash.Stdout != "x\n" || *dash.Status != 3 {
		t.Errorf("dash wants %q %d %q", dash.Qualifier, *dash.Status, *dash.Stdout)
	}
	if first := cases[0].For("bash"); *first.Stdout != "a\n" || *first.Status != 0 || first.Stderr != nil {
		t.Errorf("first case wants %+v", first)
	}
	third := cases[2]
	if *third.For("bash").Stdout != "" || *third.For("zsh").Stdout != "x" {
		t.Errorf("json values: bash %q, zsh %q", *third.For("bash").Stdout, *third.For("zsh").Stdout)
	}
	if ok, _ := third.For("zsh").check(outcome{Stdout: "x"}); !ok {
		t.Error("check refused a matching outcome")
	}
	if ok, diff := third.For("zsh").check(outcome{Stdout: "x", Status: 1}); ok || !strings.Contains(diff, "status") {
		t.Errorf("check passed a wrong status (%q)", diff)
	}
}

func TestParseSpecFileErrors(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"#### no code\n## stdout: x\n",
		"#### bad status\necho\n## status: x\n",
		"#### bad marker\necho\n##stdout x\n## what\n",
		"echo outside a case\n",
	} {
		if _, err := parseSpecFile(strings.NewReader(text)); err == nil {
			t.Errorf("no error for %q", text)
		}
	}
}
