package utils

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/core/vfs"
)

// testNow is the clock of every test filesystem, so ls -l dates are fixed.
var testNow = time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)

// secretReason is the refusal the test door gives for /w/secret*.
const secretReason = "credentials are never read by hand"

// testDoor refuses everything but stat under /w/secret (a deny rule) and
// hides /w/hidden (a hide rule), like a profile would; as a profile's door,
// it says that no rule reaches below any other mount.
var testDoor vfs.Door = rulesUnderW{testOps}

type rulesUnderW struct{ vfs.DoorFunc }

func (d rulesUnderW) CheckCarry(from, to vfs.Op) error { return vfs.CarryByOps(d.DoorFunc, from, to) }

func (rulesUnderW) CarryClear(from, to string) bool {
	under := func(p string) bool { return p == "/" || p == "/w" || strings.HasPrefix(p, "/w/") }
	return !under(from) && !under(to)
}

var testOps = vfs.DoorFunc(func(op vfs.Op) error {
	switch {
	case strings.HasPrefix(op.Path, "/w/hidden"):
		return vfs.ErrHidden
	case strings.HasPrefix(op.Path, "/w/secret"):
		if op.Name == vfs.OpStat || op.Name == vfs.OpLstat {
			return nil
		}
		return &vfs.RefusedError{Reason: secretReason}
	}
	return nil
})

// utilCase is one run of one utility against a fresh memory workspace:
// /w (rw, the default cwd) and /ro (read-only).
type utilCase struct {
	name  string
	args  []string
	files map[string]string // absolute path -> content; a trailing "/" makes a directory
	links map[string]string // absolute link path -> target
	times map[string]time.Time
	stdin string
	// noStdin runs the utility as if nothing fed its input (Env.NoStdin).
	noStdin bool
	dir     string
	env     []string

	wantOut  string
	wantErr  string
	wantExit int
	// wantFiles checks the filesystem afterwards: content, "<dir>",
	// "<file>" (exists, content unread), "<link>TARGET" or "<absent>".
	wantFiles map[string]string
	// wantOutContains is used instead of wantOut when set.
	wantOutContains string
}

// newTestFS builds the workspace of a case.
func newTestFS(t *testing.T, c utilCase) vfs.FS {
	t.Helper()
	mounts := map[string]map[string]string{"/w": {}, "/ro": {}}
	for p, content := range c.files {
		placed := false
		for prefix, files := range mounts {
			if strings.HasPrefix(p, prefix+"/") {
				files[strings.TrimPrefix(p, prefix+"/")] = content
				placed = true
			}
		}
		if !placed {
			t.Fatalf("test file %s is outside /w and /ro", p)
		}
	}
	v, err := vfs.New([]vfs.MountSpec{
		{Prefix: "/w", Files: mounts["/w"]},
		{Prefix: "/ro", ReadOnly: true, Files: mounts["/ro"]},
	}, vfs.WithClock(func() time.Time { return testNow }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	open := v.View(vfs.OpenDoor)
	for link, target := range c.links {
		if err := open.Symlink(target, link); err != nil {
			t.Fatalf("symlink %s: %v", link, err)
		}
	}
	for p, mt := range c.times {
		if err := open.Chtimes(p, mt, mt); err != nil {
			t.Fatalf("chtimes %s: %v", p, err)
		}
	}
	return v.View(testDoor)
}

// execLog records the commands a utility ran through Env.Exec.
type execLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *execLog) add(argv []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, strings.Join(argv, " "))
}

// testEnv builds the Env of a case; Exec runs registered utilities plus
// echo, true, false and "exit N" (standing in for the shell's builtins).
func testEnv(t *testing.T, c utilCase, fsys vfs.FS, stdout, stderr io.Writer, log *execLog) *Env {
	dir := c.dir
	if dir == "" {
		dir = "/w"
	}
	environ := c.env
	if environ == nil {
		environ = []string{"HOME=/w", "PATH=/usr/bin:/bin"}
	}
	e := &Env{
		Ctx:     context.Background(),
		Args:    c.args,
		Stdin:   strings.NewReader(c.stdin),
		NoStdin: c.noStdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Dir:     dir,
		FS:      fsys,
		Environ: environ,
	}
	e.LookPath = func(name string) bool {
		return Lookup(name) != nil || name == "echo" || name == "true" || name == "false" || name == "exit"
	}
	e.ExecEnv = func(ctx context.Context, argv, env []string, stdin io.Reader, out, errw io.Writer) (int, error) {
		if log != nil {
			log.add(argv)
		}
		return fakeExec(ctx, e, argv, env, stdin, out, errw)
	}
	e.Exec = func(ctx context.Context, argv []string, stdin io.Reader, out, errw io.Writer) (int, error) {
		if log != nil {
			log.add(argv)
		}
		return fakeExec(ctx, e, argv, e.Environ, stdin, out, errw)
	}
	return e
}

func fakeExec(ctx context.Context, parent *Env, argv, environ []string, stdin io.Reader, out, errw io.Writer) (int, error) {
	switch argv[0] {
	case "echo":
		fmt.Fprintln(out, strings.Join(argv[1:], " "))
		return 0, nil
	case "true":
		return 0, nil
	case "false":
		return 1, nil
	case "exit":
		n, _ := strconv.Atoi(argv[1])
		return n, nil
	}
	u := Lookup(argv[0])
	if u == nil {
		fmt.Fprintf(errw, "%s: command not found\n", argv[0])
		return 127, nil
	}
	child := *parent
	child.Ctx, child.Args, child.Stdin, child.Stdout, child.Stderr, child.Environ = ctx, argv, stdin, out, errw, environ
	return u.Run(&child)
}

// runUtil runs the case's argv and returns what it printed.
func runUtil(t *testing.T, c utilCase) (fsys vfs.FS, stdout, stderr string, exit int) {
	t.Helper()
	fsys = newTestFS(t, c)
	var out, errb bytes.Buffer
	e := testEnv(t, c, fsys, &out, &errb, nil)
	u := Lookup(c.args[0])
	if u == nil {
		t.Fatalf("no utility %s", c.args[0])
	}
	exit, err := u.Run(e)
	if err != nil {
		t.Fatalf("Run returned error %v", err)
	}
	return fsys, out.String(), errb.String(), exit
}

// runCases runs a table of cases as parallel subtests.
func runCases(t *testing.T, cases []utilCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			fsys, out, errs, exit := runUtil(t, c)
			if c.wantOutContains != "" {
				if !strings.Contains(out, c.wantOutContains) {
					t.Errorf("stdout = %q, want it to contain %q", out, c.wantOutContains)
				}
			} else if out != c.wantOut {
				t.Errorf("stdout:\n got %q\nwant %q", out, c.wantOut)
			}
			if errs != c.wantErr {
				t.Errorf("stderr:\n got %q\nwant %q", errs, c.wantErr)
			}
			if exit != c.wantExit {
				t.Errorf("exit = %d, want %d", exit, c.wantExit)
			}
			checkFiles(t, fsys, c.wantFiles)
		})
	}
}

func checkFiles(t *testing.T, fsys vfs.FS, want map[string]string) {
	t.Helper()
	paths := make([]string, 0, len(want))
	for p := range want {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		w := want[p]
		info, err := fsys.Lstat(p)
		switch {
		case w == "<absent>":
			if err == nil {
				t.Errorf("%s exists, want it absent", p)
			}
		case err != nil:
			t.Errorf("%s: %v", p, err)
		case w == "<dir>":
			if !info.IsDir() {
				t.Errorf("%s is not a directory", p)
			}
		case w == "<file>":
			if !info.Mode().IsRegular() {
				t.Errorf("%s is not a regular file", p)
			}
		case strings.HasPrefix(w, "<link>"):
			target, err := fsys.Readlink(p)
			if err != nil || target != strings.TrimPrefix(w, "<link>") {
				t.Errorf("%s links to %q (%v), want %q", p, target, err, strings.TrimPrefix(w, "<link>"))
			}
		default:
			got := readTestFile(t, fsys, p)
			if got != w {
				t.Errorf("%s holds %q, want %q", p, got, w)
			}
		}
	}
}

func readTestFile(t *testing.T, fsys vfs.FS, p string) string {
	t.Helper()
	f, err := fsys.Open(p)
	if err != nil {
		t.Errorf("open %s: %v", p, err)
		return ""
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Errorf("read %s: %v", p, err)
	}
	return string(b)
}

// fileMode reads a path's permission bits for tests.
func fileMode(t *testing.T, fsys vfs.FS, p string) fs.FileMode {
	t.Helper()
	info, err := fsys.Lstat(p)
	if err != nil {
		t.Fatalf("lstat %s: %v", p, err)
	}
	return info.Mode()
}

// voiceCase checks that a utility's Voice is the line it really prints.
type voiceCase struct {
	utility string
	arg     string
	msg     string
	want    string
}

func runVoiceCases(t *testing.T, cases []voiceCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.utility+" "+c.arg, func(t *testing.T) {
			t.Parallel()
			got := Lookup(c.utility).RenderVoice(c.arg, c.msg)
			if got != c.want {
				t.Errorf("voice = %q, want %q", got, c.want)
			}
		})
	}
}

var errClosedPipe = io.ErrClosedPipe
