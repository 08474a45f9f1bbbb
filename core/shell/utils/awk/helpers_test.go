package awk

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"gatehouse/core/shell/utils"
	"gatehouse/core/vfs"
)

// testReason is the refusal the test door gives for /w/secret*.
const testReason = "credentials are never read by hand"

// testDoor denies /w/secret* (stat allowed) and hides /w/hidden*.
var testDoor = vfs.DoorFunc(func(op vfs.Op) error {
	switch {
	case strings.HasPrefix(op.Path, "/w/hidden"):
		return vfs.ErrHidden
	case strings.HasPrefix(op.Path, "/w/secret"):
		if op.Name == vfs.OpStat || op.Name == vfs.OpLstat {
			return nil
		}
		return &vfs.RefusedError{Reason: testReason}
	}
	return nil
})

// result is what one awk run printed and returned.
type result struct {
	out, err string
	code     int
	runErr   error
}

// runAwk runs awk with argv (without "awk") over a memory mount /w
// holding files (paths relative to /w), with stdin and an Exec that
// answers `sh -c` with a tiny fake shell (echo, exit N, cat).
func runAwk(t testing.TB, ctx context.Context, files map[string]string, stdin string, args ...string) (result, vfs.FS) {
	t.Helper()
	v, err := vfs.New([]vfs.MountSpec{{Prefix: "/w", Files: files}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	fsys := v.View(testDoor)
	var out, errb bytes.Buffer
	if ctx == nil {
		ctx = context.Background()
	}
	e := &utils.Env{
		Ctx: ctx, Args: append([]string{"awk"}, args...), Stdin: strings.NewReader(stdin),
		Stdout: &out, Stderr: &errb, Dir: "/w", FS: fsys,
		Environ: []string{"HOME=/w", "TZ=UTC"},
		Exec:    fakeShell,
	}
	code, runErr := Run(e)
	return result{out: out.String(), err: errb.String(), code: code, runErr: runErr}, fsys
}

// fakeShell stands in for the shell's nested lines: `sh -c "echo WORDS"`,
// `sh -c "exit N"` and `sh -c cat`.
func fakeShell(ctx context.Context, argv []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if len(argv) != 3 || argv[0] != "sh" || argv[1] != "-c" {
		io.WriteString(stderr, "fake: unexpected argv\n")
		return 127, nil
	}
	cmd := argv[2]
	switch {
	case strings.HasPrefix(cmd, "echo "):
		io.WriteString(stdout, strings.TrimPrefix(cmd, "echo ")+"\n")
		return 0, nil
	case strings.HasPrefix(cmd, "exit "):
		n := 0
		for _, c := range strings.TrimPrefix(cmd, "exit ") {
			n = n*10 + int(c-'0')
		}
		return n, nil
	case cmd == "cat":
		io.Copy(stdout, stdin)
		return 0, nil
	case cmd == "sort":
		data, _ := io.ReadAll(stdin)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		sortStrings(lines)
		io.WriteString(stdout, strings.Join(lines, "\n")+"\n")
		return 0, nil
	}
	io.WriteString(stderr, "sh: 1: "+cmd+": not found\n")
	return 127, nil
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
