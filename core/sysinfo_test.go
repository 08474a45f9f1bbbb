package core

import (
	"context"
	"os"
	"strings"
	"testing"

	"gatehouse/core/gate"
)

// The machine the utilities describe is the one the shell's variables
// describe, and never the host (G-12.1).
func TestMachineFacts(t *testing.T) {
	t.Parallel()
	ws, err := NewWorkspace(seedMounts(), WithProfiles(gate.ProfileSpec{Name: "all", Cwd: "/repo"}), WithDefaultProfile("all"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	line := `echo "$UID $USER $HOSTNAME $HOSTTYPE"; id -u; whoami; hostname; uname -m; arch; id; uname -s; nproc`
	res := ws.Execute(context.Background(), line)
	want := "1000 agent gatehouse x86_64\n1000\nagent\ngatehouse\nx86_64\nx86_64\nuid=1000(agent) gid=1000(agent) groups=1000(agent)\nLinux\n2\n"
	if res.Stdout != want || res.Stderr != "" || res.ExitCode != 0 {
		t.Fatalf("got out %q err %q exit %d, want out %q", res.Stdout, res.Stderr, res.ExitCode, want)
	}
	all := ws.Execute(context.Background(), "uname -a; hostname -f; id root; groups")
	host, _ := os.Hostname()
	if host != "" && host != "gatehouse" && strings.Contains(all.Stdout, host) {
		t.Errorf("the host's name leaks: %q", all.Stdout)
	}
	if want := "Linux gatehouse 6.1.0-gatehouse #1 SMP PREEMPT_DYNAMIC x86_64 GNU/Linux\ngatehouse\nuid=0(root) gid=0(root) groups=0(root)\nagent\n"; all.Stdout != want {
		t.Errorf("got %q, want %q", all.Stdout, want)
	}
}
