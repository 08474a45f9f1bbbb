package utils

import (
	"context"
	"io"
	"testing"
)

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestSeqAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "seq last", args: []string{"seq", "3"}, wantOut: "1\n2\n3\n"},
		{name: "seq first last", args: []string{"seq", "2", "5"}, wantOut: "2\n3\n4\n5\n"},
		{name: "seq step", args: []string{"seq", "1", "3", "10"}, wantOut: "1\n4\n7\n10\n"},
		{name: "seq down", args: []string{"seq", "5", "-2", "1"}, wantOut: "5\n3\n1\n"},
		{name: "seq empty", args: []string{"seq", "3", "1"}, wantOut: ""},
		{name: "seq float", args: []string{"seq", "1", "0.5", "2.25"}, wantOut: "1.0\n1.5\n2.0\n"},
		{name: "seq float tenth", args: []string{"seq", "0.1", "0.1", "0.3"}, wantOut: "0.1\n0.2\n0.3\n"},
		{name: "seq precision", args: []string{"seq", "1.50", "2"}, wantOut: "1.50\n"},
		{name: "seq exponent", args: []string{"seq", "1e2", "1e2", "3e2"}, wantOut: "100\n200\n300\n"},
		{name: "seq width", args: []string{"seq", "-w", "8", "11"}, wantOut: "08\n09\n10\n11\n"},
		{name: "seq width neg", args: []string{"seq", "-w", "-1", "1"}, wantOut: "-1\n00\n01\n"},
		{name: "seq width float", args: []string{"seq", "-w", "0.5", "1", "3"}, wantOut: "0.5\n1.5\n2.5\n"},
		{name: "seq sep", args: []string{"seq", "-s,", "3"}, wantOut: "1,2,3\n"},
		{name: "seq sep empty", args: []string{"seq", "-s", "", "3"}, wantOut: "123\n"},
		{name: "seq format", args: []string{"seq", "-f", "%03g", "3"}, wantOut: "001\n002\n003\n"},
		{name: "seq format f", args: []string{"seq", "-f", "n=%.1f", "2"}, wantOut: "n=1.0\nn=2.0\n"},
		{name: "seq format bad", args: []string{"seq", "-f", "%d", "3"}, wantOut: "", wantErr: "seq: format '%d' has unknown %d directive\n", wantExit: 1},
		{name: "seq format none", args: []string{"seq", "-f", "x", "3"}, wantOut: "", wantErr: "seq: format 'x' has no % directive\n", wantExit: 1},
		{name: "seq zero incr", args: []string{"seq", "1", "0", "3"}, wantOut: "", wantErr: "seq: invalid Zero increment value: '0'\nTry 'seq --help' for more information.\n", wantExit: 1},
		{name: "seq invalid", args: []string{"seq", "x"}, wantOut: "", wantErr: "seq: invalid floating point argument: 'x'\nTry 'seq --help' for more information.\n", wantExit: 1},
		{name: "seq extra", args: []string{"seq", "1", "2", "3", "4"}, wantOut: "", wantErr: "seq: extra operand '4'\nTry 'seq --help' for more information.\n", wantExit: 1},
		{name: "seq missing", args: []string{"seq"}, wantOut: "", wantErr: "seq: missing operand\nTry 'seq --help' for more information.\n", wantExit: 1},
		{name: "seq negative first", args: []string{"seq", "-3", "-1"}, wantOut: "-3\n-2\n-1\n"},
		{name: "seq zero", args: []string{"seq", "0"}, wantOut: ""},
	})
}

func TestSeqLongRunStopsWithReader(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "help", args: []string{"seq", "--help"}, wantOut: seqHelp},
		{name: "negative step options", args: []string{"seq", "-s", " ", "-1", "-1", "-3"}, wantOut: "-1 -2 -3\n"},
	})
	var w limitedWriter
	w.limit = 100
	e := &Env{Ctx: context.Background(), Args: []string{"seq", "1", "100000000"}, Stdout: &w, Stderr: io.Discard}
	status, err := Lookup("seq").Run(e)
	if status != 1 || err != nil {
		t.Errorf("seq into a closed pipe = %d, %v; want 1, nil", status, err)
	}
}
