package shell

import (
	"context"
	"log"
	"os"
	"strings"
	"testing"
	"time"

	"gatehouse/core/gate"
	"gatehouse/core/vfs"
)

// fdShell is a shell over one host mount /h, so the files descriptors
// hold are real host files the process can count.
func fdShell(t *testing.T) *Shell {
	t.Helper()
	fsys, err := vfs.New([]vfs.MountSpec{{Prefix: "/h", HostDir: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fsys.Close() })
	var gm []gate.Mount
	for _, m := range fsys.Mounts() {
		gm = append(gm, gate.Mount{Prefix: m.Prefix, ReadOnly: m.ReadOnly})
	}
	prof, err := gate.Compile(gate.ProfileSpec{Name: "p"}, gm)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := New(Config{VFS: fsys, Profile: prof, SessionID: "s-fd", AgentID: "a", Host: panicHost{},
		Logger: log.New(&lockedLog{}, "", 0), Limits: Limits{WallTime: 20 * time.Second}, Cwd: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

func openFds(t *testing.T) int {
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	return len(entries)
}

// A line is a whole bash -c program: the files exec opened on descriptors
// close when it ends, whichever way they were opened, duplicated, kept by
// a subshell or left open by {name}; the next line finds them closed.
func TestDescriptorsCloseWhenTheLineEnds(t *testing.T) {
	sh := fdShell(t)
	ctx := context.Background()
	if res := sh.Run(ctx, "echo warm > /h/w; exec 3</h/w; read -u 3 x"); res.ExitCode != 0 {
		t.Fatalf("warm-up: %+v", res)
	}
	before := openFds(t)
	lines := []string{
		`for i in $(seq 3 300); do eval "exec $i>/h/f$i"; done; echo x >&300`,
		`for i in $(seq 1 200); do exec {fd}>>/h/named; done; echo "$fd"`,
		`exec 3</h/w 4<&3 5<>/h/rw; ( exec 6>/h/sub; echo in >&6 ); cat <&4 >/dev/null`,
		`for i in $(seq 1 100); do echo x {v}>/h/kept; done`,
		`exec >/h/log 2>&1; echo to-log; ls /h/missing`,
		`exec 7</h/w; echo x | cat <&7 >/dev/null; (read -u 7 y) & wait`,
	}
	for _, line := range lines {
		res := sh.Run(ctx, line)
		if res.ExitCode != 0 && !strings.Contains(line, "missing") {
			t.Fatalf("%q: exit %d, stderr %q", line, res.ExitCode, res.Stderr)
		}
		if after := openFds(t); after > before {
			t.Errorf("%q left %d more host descriptors open", line, after-before)
		}
	}
	res := sh.Run(ctx, "echo x >&3; echo $?; read -u 10 l; echo $?; echo visible")
	if res.Stdout != "1\n1\nvisible\n" || !strings.Contains(res.Stderr, "3: Bad file descriptor") {
		t.Errorf("descriptors outlived their line: %+v", res)
	}
}
