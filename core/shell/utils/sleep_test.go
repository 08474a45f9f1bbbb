package utils

import (
	"context"
	"io"
	"testing"
	"time"
)

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestSleepAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "sleep missing", args: []string{"sleep"}, wantOut: "", wantErr: "sleep: missing operand\nTry 'sleep --help' for more information.\n", wantExit: 1},
		{name: "sleep invalid", args: []string{"sleep", "abc"}, wantOut: "", wantErr: "sleep: invalid time interval 'abc'\nTry 'sleep --help' for more information.\n", wantExit: 1},
		{name: "sleep zero", args: []string{"sleep", "0"}, wantOut: ""},
		{name: "sleep suffixes", args: []string{"sleep", "0s", "0m", "0.0h", "0d"}, wantOut: ""},
		{name: "sleep invalid suffix", args: []string{"sleep", "1x"}, wantOut: "", wantErr: "sleep: invalid time interval '1x'\nTry 'sleep --help' for more information.\n", wantExit: 1},
	})
}

func TestSleepEndsWithTheLine(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "help", args: []string{"sleep", "--help"}, wantOut: sleepHelp},
		{name: "fraction", args: []string{"sleep", "0.01"}},
	})
	ctx, cancel := context.WithCancel(context.Background())
	e := &Env{Ctx: ctx, Args: []string{"sleep", "1h"}, Stdout: io.Discard, Stderr: io.Discard}
	start := time.Now()
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	_, err := Lookup("sleep").Run(e)
	if err == nil {
		t.Errorf("sleep ignored the cancelled line")
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("sleep took %v after cancellation", time.Since(start))
	}
}
