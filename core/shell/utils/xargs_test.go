package utils

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"
)

func TestXargs(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/a": "A\n", "/w/b": "B\n", "/w/list": "a\nb\n"}
	runCases(t, []utilCase{
		{name: "echo by default", args: []string{"xargs"}, stdin: "a b\nc\n", wantOut: "a b c\n"},
		{name: "command with initial args", args: []string{"xargs", "echo", "x"}, stdin: "1 2", wantOut: "x 1 2\n"},
		{name: "max args", args: []string{"xargs", "-n", "2"}, stdin: "1 2 3 4 5", wantOut: "1 2\n3 4\n5\n"},
		{name: "max lines", args: []string{"xargs", "-L", "1"}, stdin: "1 2\n3\n", wantOut: "1 2\n3\n"},
		{name: "trailing blank continues line", args: []string{"xargs", "-L", "1"}, stdin: "1 \n2\n3\n", wantOut: "1 2\n3\n"},
		{name: "replace", args: []string{"xargs", "-I", "{}", "echo", "<{}>"}, stdin: "a b\n  c\n", wantOut: "<a b>\n<c>\n"},
		{name: "replace with empty input runs nothing", args: []string{"xargs", "-I{}", "echo", "{}"}},
		{name: "quotes and backslashes", args: []string{"xargs", "-n1"}, stdin: `'a b' "c d" e\ f`, wantOut: "a b\nc d\ne f\n"},
		{name: "null separated", args: []string{"xargs", "-0", "-n1"}, stdin: "a b\x00c\x00", wantOut: "a b\nc\n"},
		{name: "delimiter", args: []string{"xargs", "-d", ",", "-n1"}, stdin: "a,b c", wantOut: "a\nb c\n"},
		{name: "newline delimiter escape", args: []string{"xargs", "-d", `\n`}, stdin: "a b\nc\n", wantOut: "a b c\n"},
		{name: "empty input runs once", args: []string{"xargs", "echo", "hi"}, wantOut: "hi\n"},
		{name: "no run if empty", args: []string{"xargs", "-r", "echo", "hi"}, stdin: "\n"},
		{name: "eof string", args: []string{"xargs", "-E", "STOP"}, stdin: "a STOP b", wantOut: "a\n"},
		{name: "runs utilities", args: []string{"xargs", "cat"}, stdin: "a b", files: files, wantOut: "A\nB\n"},
		{name: "arg file", args: []string{"xargs", "-a", "list", "cat"}, files: files, wantOut: "A\nB\n"},
		{name: "verbose", args: []string{"xargs", "-t", "-n1", "echo"}, stdin: "a b", wantOut: "a\nb\n", wantErr: "echo a\necho b\n"},
		{name: "failure gives 123", args: []string{"xargs", "-n1", "cat"}, stdin: "a nope b", files: files,
			wantOut: "A\nB\n", wantErr: "cat: nope: No such file or directory\n", wantExit: 123},
		{name: "status 255 aborts", args: []string{"xargs", "-n1", "exit"}, stdin: "255 0",
			wantErr: "xargs: exit: exited with status 255; aborting\n", wantExit: 124},
		{name: "missing command", args: []string{"xargs", "nosuch"}, stdin: "a",
			wantErr: "xargs: nosuch: No such file or directory\n", wantExit: 127},
		{name: "missing command never run", args: []string{"xargs", "-r", "nosuch"}},
		{name: "unmatched quote", args: []string{"xargs"}, stdin: "a 'b",
			wantErr: "xargs: unmatched single quote; by default quotes are special to xargs unless you use the -0 option\n", wantExit: 1},
		{name: "line too long", args: []string{"xargs", "-s", "10", "echo"}, stdin: "abcdefghijk",
			wantErr: "xargs: argument line too long\n", wantExit: 1},
		{name: "size splits commands", args: []string{"xargs", "-s", "12", "echo"}, stdin: "aaa bbb ccc", wantOut: "aaa\nbbb\nccc\n"},
		{name: "invalid number", args: []string{"xargs", "-n", "x"}, wantErr: "xargs: invalid number \"x\" for -n option\nTry 'xargs --help' for more information.\n", wantExit: 1},
		{name: "options stop at the command", args: []string{"xargs", "echo", "-n", "1"}, stdin: "a", wantOut: "-n 1 a\n"},
		{name: "quotes in the middle of an item", args: []string{"xargs", "-n1"}, stdin: "a b'c d'e f\\ g h\n",
			wantOut: "a\nbc de\nf g\nh\n"},
		{name: "a tab before a newline continues the line", args: []string{"xargs", "-L", "1"}, stdin: "1\t\n2 3\n4\n",
			wantOut: "1 2 3\n4\n"},
		{name: "eof string on its own line", args: []string{"xargs", "-E", "STOP"}, stdin: "a\nSTOP\nb\n", wantOut: "a\n"},
	})
}

// Items are read from a 64 KiB buffer, those it holds whole in one slice:
// a long list of paths, some quoted, straddles the buffer's end many times
// and comes out as it went in.
func TestXargsReadsItemsAcrossItsBuffer(t *testing.T) {
	t.Parallel()
	var in, want strings.Builder
	for i := range 20000 {
		item := fmt.Sprintf("./tree/d%04d/f%06d.txt", i/100, i)
		switch {
		case i%997 == 0:
			in.WriteString("'" + item + "'")
		case i%1009 == 0:
			in.WriteString(strings.Replace(item, "/", "\\/", 1))
		default:
			in.WriteString(item)
		}
		if i%7 == 0 {
			in.WriteString(" \t")
		}
		in.WriteByte("\n "[i%3/2])
		want.WriteString(item + "\n")
	}
	_, out, errs, exit := runUtil(t, utilCase{args: []string{"xargs", "-n1"}, stdin: in.String()})
	if out != want.String() || errs != "" || exit != 0 {
		t.Fatalf("xargs -n1 printed %d bytes (%q, %d), want %d", len(out), errs, exit, want.Len())
	}
}

func TestXargsParallel(t *testing.T) {
	t.Parallel()
	c := utilCase{args: []string{"xargs", "-P", "3", "-n", "1", "echo"}, stdin: "1 2 3 4 5 6"}
	_, out, errs, exit := runUtil(t, c)
	got := strings.Split(strings.TrimSpace(out), "\n")
	sort.Strings(got)
	if strings.Join(got, " ") != "1 2 3 4 5 6" || errs != "" || exit != 0 {
		t.Errorf("parallel run printed %q (%q, %d)", out, errs, exit)
	}
}

func TestXargsStopsOnLineError(t *testing.T) {
	t.Parallel()
	errAsk := errors.New("ask pending")
	var out bytes.Buffer
	calls := 0
	e := &Env{
		Ctx:    context.Background(),
		Args:   []string{"xargs", "-n1", "cat"},
		Stdin:  strings.NewReader("a b c"),
		Stdout: &out, Stderr: &out, Dir: "/",
		Exec: func(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
			calls++
			return 126, errAsk
		},
	}
	status, err := Lookup("xargs").Run(e)
	if !errors.Is(err, errAsk) || calls != 1 {
		t.Errorf("xargs = %d, %v after %d calls; want the exec error after 1 call", status, err, calls)
	}
}
