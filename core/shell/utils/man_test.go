package utils

import "testing"

func TestMan(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "installed utility", args: []string{"man", "tr"}, wantOut: trHelp},
		{name: "section number", args: []string{"man", "1", "cut"}, wantOut: cutHelp},
		{name: "two pages", args: []string{"man", "rev", "tac"}, wantOut: revHelp + "\n" + tacHelp},
		{name: "not installed", args: []string{"man", "python3"}, wantErr: "No manual entry for python3\n", wantExit: 16},
		{name: "builtin has no page", args: []string{"man", "echo", "exit"}, wantOut: echoHelp, wantErr: "No manual entry for exit\n", wantExit: 16},
		{name: "no page", args: []string{"man"}, wantErr: "What manual page do you want?\nFor example, try 'man man'.\n", wantExit: 1},
		{name: "man man", args: []string{"man", "man"}, wantOut: manHelp},
		{name: "bad option", args: []string{"man", "-k", "x"}, wantErr: "man: invalid option -- 'k'\nTry 'man --help' or 'man --usage' for more information.\n", wantExit: 1},
	})
}

// TestManRespectsTheProfile: a utility the session may not run has no page.
func TestManRespectsTheProfile(t *testing.T) {
	t.Parallel()
	c := utilCase{args: []string{"man", "sed"}}
	fsys := newTestFS(t, c)
	var out, errb limitedWriter
	out.limit, errb.limit = 1<<20, 1<<20
	e := testEnv(t, c, fsys, &out, &errb, nil)
	e.LookPath = func(name string) bool { return name != "sed" }
	status, _ := Lookup("man").Run(e)
	if status != 16 || out.got.String() != "" || errb.got.String() != "No manual entry for sed\n" {
		t.Errorf("man sed for a profile without sed = %d, %q, %q", status, out.got.String(), errb.got.String())
	}
}
