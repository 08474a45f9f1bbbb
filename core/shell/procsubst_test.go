package shell

import (
	"context"
	"strings"
	"testing"
)

// TestExecIntoProcessSubstitution: exec > >(tee log) 2>&1, the usual way a
// script logs everything it prints, shows the line's output and writes the
// log, as bash does; the rest of the line's output was lost. A session keeps
// a bounded number of such bodies: past it, a body runs at once, as before.
func TestExecIntoProcessSubstitution(t *testing.T) {
	sh := fdShell(t)
	res := sh.Run(context.Background(), "exec > >(tee log.txt) 2>&1; echo one; ls /nope; echo two")
	want := "one\nls: cannot access '/nope': No such file or directory\ntwo\n"
	if res.Stdout != want || res.Stderr != "" {
		t.Fatalf("stdout %q, stderr %q", res.Stdout, res.Stderr)
	}
	res = sh.Run(context.Background(), "cat log.txt")
	if res.Stdout != want {
		t.Fatalf("log %q", res.Stdout)
	}
	line := strings.Repeat("eval 'exec 3> >(cat > /dev/null)'; ", 1100) + "echo done"
	if res = sh.Run(context.Background(), line); res.Stdout != "done\n" || res.ExitCode != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %.200q", res.ExitCode, res.Stdout, res.Stderr)
	}
	if n := sh.wbodyCount.Load(); n > maxWBodies {
		t.Fatalf("%d bodies kept", n)
	}
}
