package awk

import (
	"context"
	"strings"
	"testing"
	"time"

	"gatehouse/core/shell/utils"
)

// TestGateVoices checks what gawk cannot show: files the door denies or
// hides, for input, -f program files and output redirections (G-6.2,
// G-4.5, G-7.3).
func TestGateVoices(t *testing.T) {
	files := map[string]string{"secret.txt": "s3cr3t\n", "hidden.txt": "h\n", "ok.txt": "fine\n"}
	cases := []struct {
		name     string
		args     []string
		wantOut  string
		wantErr  string
		wantCode int
	}{
		{"denied input", []string{"1", "secret.txt"}, "", "awk: fatal: cannot open file `secret.txt' for reading: " + testReason + "\n", 2},
		{"hidden input reads as missing", []string{"1", "hidden.txt"}, "", "awk: fatal: cannot open file `hidden.txt' for reading: No such file or directory\n", 2},
		{"missing input", []string{"1", "nothere.txt"}, "", "awk: fatal: cannot open file `nothere.txt' for reading: No such file or directory\n", 2},
		{"denied after a good file", []string{"{print}", "ok.txt", "secret.txt"}, "fine\n", "awk: cmd. line:1: fatal: cannot open file `secret.txt' for reading: " + testReason + "\n", 2},
		{"denied getline file", []string{`BEGIN{print (getline l < "secret.txt"), "[" l "]"}`}, "-1 []\n", "", 0},
		{"hidden getline file", []string{`BEGIN{print (getline l < "hidden.txt")}`}, "-1\n", "", 0},
		{"denied progfile", []string{"-f", "secret.txt"}, "", "awk: fatal: cannot open source file `secret.txt' for reading: " + testReason + "\n", 2},
		{"hidden progfile", []string{"-f", "hidden.awk"}, "", "awk: fatal: cannot open source file `hidden.awk' for reading: No such file or directory\n", 2},
		{"denied output", []string{`BEGIN{print "x" > "secret.out"}`}, "", "awk: cmd. line:1: fatal: cannot redirect to `secret.out': " + testReason + "\n", 2},
		{"hidden output", []string{`BEGIN{print "x" > "hidden.out"}`}, "", "awk: cmd. line:1: fatal: cannot redirect to `hidden.out': No such file or directory\n", 2},
		{"close of a denied file", []string{`BEGIN{getline l < "secret.txt"; print close("secret.txt")}`}, "-1\n", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, _ := runAwk(t, nil, files, "", c.args...)
			if r.out != c.wantOut || r.err != c.wantErr || r.code != c.wantCode {
				t.Errorf("awk %q:\n got out=%q err=%q code=%d\nwant out=%q err=%q code=%d", c.args, r.out, r.err, r.code, c.wantOut, c.wantErr, c.wantCode)
			}
		})
	}
}

// TestVoiceMatchesRun keeps explain's predicted line equal to the run's.
func TestVoiceMatchesRun(t *testing.T) {
	u := utils.Lookup("awk")
	if u == nil || utils.Lookup("gawk") == nil {
		t.Fatal("awk and gawk are not registered")
	}
	r, _ := runAwk(t, nil, map[string]string{"secret.txt": "x"}, "", "{print}", "secret.txt")
	if want := u.RenderVoice("secret.txt", testReason); r.err != want || r.code != u.OperandExit {
		t.Errorf("run printed %q (exit %d), voice says %q (exit %d)", r.err, r.code, want, u.OperandExit)
	}
}

// TestOperands declares input files and -f files, never the program text,
// assignments or "-" (G-4.9).
func TestOperands(t *testing.T) {
	cases := []struct {
		argv []string
		want []string
	}{
		{[]string{"awk", "{print}", "a", "b"}, []string{"a", "b"}},
		{[]string{"awk", "-F:", "{print}", "x=1", "a", "-"}, []string{"a"}},
		{[]string{"awk", "-f", "p.awk", "a"}, []string{"p.awk", "a"}},
		{[]string{"awk", "-fp.awk", "--", "a"}, []string{"p.awk", "a"}},
		{[]string{"awk", "--file=p.awk", "a"}, []string{"p.awk", "a"}},
		{[]string{"awk", "-v", "n=1", "-e", "BEGIN{}", "a"}, []string{"a"}},
		{[]string{"awk", "--", "{print}", "/etc/x"}, []string{"/etc/x"}},
		{[]string{"awk", "BEGIN{}"}, nil},
		{[]string{"awk", `{print > "out.txt"; print >> "/tmp/log"; getline l < "in.txt"}`, "a"}, []string{"a", "out.txt", "/tmp/log", "in.txt"}},
		{[]string{"awk", `BEGIN{print > "/dev/stderr"; print | "sort"; f = "x"; print > f; getline < "-"}`}, nil},
		{[]string{"awk", `function f(){while((getline l < ("a" ".txt")) > 0) n++} {print > ("o")}`}, []string{"o"}},
		{[]string{"awk", `{print $1`}, nil},
	}
	for _, c := range cases {
		var got []string
		for _, ref := range Operands(c.argv) {
			got = append(got, ref.Operand(c.argv))
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("Operands(%q) = %q, want %q", c.argv, got, c.want)
		}
	}
}

// TestStopsAtWallTime: an endless loop ends when the line's context does.
func TestStopsAtWallTime(t *testing.T) {
	progs := []string{
		`BEGIN{while(1);}`,
		`BEGIN{for(;;) x++}`,
		`BEGIN{do {} while (1)}`,
		`function f(){while(1);} BEGIN{f()}`,
		`BEGIN{while(1) {a[i++]; delete a}}`,
	}
	for _, p := range progs {
		t.Run(p, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			r, _ := runAwk(t, ctx, nil, "", p)
			if time.Since(start) > 5*time.Second {
				t.Fatalf("took %v", time.Since(start))
			}
			if r.runErr == nil {
				t.Errorf("no error returned after the context ended: %+v", r)
			}
		})
	}
}

// TestHostileInput: no line can crash or exhaust the process.
func TestHostileInput(t *testing.T) {
	memoryBudget.Store(16 << 20)
	t.Cleanup(func() { memoryBudget.Store(defaultMemLimit) })
	cases := []struct {
		name, prog, wantErr string
		wantCode            int
	}{
		{"deep recursion", `function f(n){return f(n+1)} BEGIN{f(1)}`, "call nesting too deep", 2},
		{"deep parentheses", "BEGIN{x=" + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "}", "nested too deeply", 1},
		{"deep unary", "BEGIN{x=" + strings.Repeat("!", 100000) + "1}", "nested too deeply", 1},
		{"deep blocks", "BEGIN" + strings.Repeat("{", 100000) + strings.Repeat("}", 100000), "nested too deeply", 1},
		{"huge string", `BEGIN{s="x"; while(1) s = s s}`, "exceeds the memory budget", 2},
		{"huge width by argument", `BEGIN{printf "%*d", 999999999, 1}`, "field width too large", 2},
		{"huge negative width by argument", `BEGIN{printf "%*d", -999999999, 1}`, "field width too large", 2},
		{"huge precision by argument", `BEGIN{printf "%.*d", 999999999, 1}`, "precision too large", 2},
		{"huge array", `BEGIN{while(1) a[i++] = sprintf("%1000s", i)}`, "memory budget", 2},
		{"huge printf width", `BEGIN{printf "%999999999d", 1}`, "too large", 2},
		{"huge field", `BEGIN{$99999999 = 1}`, "too large", 2},
		{"huge NF", `BEGIN{NF = 1e9}`, "too large", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			r, _ := runAwk(t, ctx, nil, "", c.prog)
			if !strings.Contains(r.err, c.wantErr) || r.code != c.wantCode {
				t.Errorf("got err=%q code=%d runErr=%v, want %q code %d", trim(r.err), r.code, r.runErr, c.wantErr, c.wantCode)
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// TestCommands: system, pipes to and from commands run through Env.Exec
// (the shell's gate); without it they fail clearly.
func TestCommands(t *testing.T) {
	r, _ := runAwk(t, nil, nil, "", `BEGIN{print "a"; r = system("echo b"); print "c", r; "echo d e" | getline; print $2; print "z\ny" | "sort"; close("sort"); print system("exit 3")}`)
	if want := "a\nb\nc 0\ne\ny\nz\n3\n"; r.out != want || r.err != "" {
		t.Errorf("got %q %q, want %q", r.out, r.err, want)
	}
	v, err := newNoExecRun(t, `BEGIN{system("ls")}`)
	if err != nil || v.code != 2 || !strings.Contains(v.err, "fatal: cannot run `ls'") {
		t.Errorf("without Exec: %+v %v", v, err)
	}
}

func newNoExecRun(t *testing.T, prog string) (result, error) {
	var out, errb strings.Builder
	e := &utils.Env{Ctx: context.Background(), Args: []string{"awk", prog}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Dir: "/"}
	code, err := Run(e)
	return result{out: out.String(), err: errb.String(), code: code}, err
}
