package utils

import (
	"bytes"
	"strings"
	"testing"

	"gatehouse/core/vfs"
)

// df describes the workspace's mounts, never the host's disks (G-12.1).
func TestDf(t *testing.T) {
	runCases(t, []utilCase{
		{name: "a file's mount", args: []string{"df", "/ro"}, files: map[string]string{"/ro/a": strings.Repeat("x", 2000)},
			wantOut: "Filesystem     1K-blocks  Used Available Use% Mounted on\n" +
				"memory           1048576     3   1048573   1% /ro\n"},
		{name: "rules reach below the mount point", args: []string{"df", "."}, files: map[string]string{"/w/hidden/a": strings.Repeat("x", 2000)},
			wantOut: "Filesystem     1K-blocks  Used Available Use% Mounted on\n" +
				"memory                 -     -         -    - /w\n"},
		{name: "human, typed", args: []string{"df", "-hT", "/ro"},
			wantOut: "Filesystem     Type    Size  Used Avail Use% Mounted on\n" +
				"memory         memory  1.0G     0  1.0G   0% /ro\n"},
		{name: "posix", args: []string{"df", "-P", "/ro"},
			wantOut: "Filesystem     1024-blocks  Used Available Capacity Mounted on\n" +
				"memory             1048576     0   1048576       0% /ro\n"},
		{name: "every mount with a total", args: []string{"df", "--total", "-BM"},
			wantOut: "Filesystem     1M-blocks  Used Available Use% Mounted on\n" +
				"memory              1024     0      1024   0% /ro\n" +
				"memory              1024     0      1024   0% /tmp\n" +
				"memory                 -     -         -    - /w\n" +
				"total                  -     -         -    - -\n"},
		{name: "inodes are not counted", args: []string{"df", "-i", "/w"},
			wantOut: "Filesystem     Inodes IUsed IFree IUse% Mounted on\n" +
				"memory              -     -     -     - /w\n"},
		{name: "missing", args: []string{"df", "nope"}, wantErr: "df: nope: No such file or directory\n", wantExit: 1},
		{name: "hidden is missing", args: []string{"df", "hidden/x"}, wantErr: "df: hidden/x: No such file or directory\n", wantExit: 1},
		{name: "excluded", args: []string{"df", "-x", "memory"}, wantErr: "df: no file systems processed\n", wantExit: 1},
		{name: "bad block size", args: []string{"df", "-B", "Q"}, wantErr: "df: invalid --block-size argument 'Q'\n", wantExit: 1},
	})
}

// A mount the door hides is not listed (G-4.5).
func TestDfHiddenMount(t *testing.T) {
	v, err := vfs.New([]vfs.MountSpec{{Prefix: "/w"}, {Prefix: "/secret"}})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	door := vfs.DoorFunc(func(op vfs.Op) error {
		if strings.HasPrefix(op.Path, "/secret") {
			return vfs.ErrHidden
		}
		return nil
	})
	var out, errb bytes.Buffer
	e := &Env{Args: []string{"df"}, Stdout: &out, Stderr: &errb, Dir: "/w", FS: v.View(door)}
	if code, _ := Lookup("df").Run(e); code != 0 || strings.Contains(out.String(), "secret") || !strings.Contains(out.String(), " /w\n") {
		t.Fatalf("df = %d %q %q", code, out.String(), errb.String())
	}
}

// ps lists the session's own processes in procps's layouts.
func TestPs(t *testing.T) {
	procs := []Proc{
		{PID: 4242, PPID: 4241, Comm: "bash", Args: "bash"},
		{PID: 4250, PPID: 4242, Comm: "sleep", Args: "sleep 30"},
		{PID: 4251, PPID: 4242, Comm: "ps", Args: "ps"},
	}
	cases := []struct {
		args     []string
		out, err string
		exit     int
	}{
		{[]string{"ps"}, "  PID TTY          TIME CMD\n 4242 ?        00:00:00 bash\n 4250 ?        00:00:00 sleep\n 4251 ?        00:00:00 ps\n", "", 0},
		{[]string{"ps", "-o", "pid,ppid,comm,args", "-p", "4250"}, "  PID  PPID COMMAND         COMMAND\n 4250  4242 sleep           sleep 30\n", "", 0},
		{[]string{"ps", "-p", "4250", "-o", "pid=,comm="}, " 4250 sleep\n", "", 0},
		{[]string{"ps", "-C", "sleep", "-o", "pid="}, " 4250\n", "", 0},
		{[]string{"ps", "aux"}, "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n", "", 0},
		{[]string{"ps", "-ef"}, "UID        PID  PPID  C STIME TTY          TIME CMD\n", "", 0},
		{[]string{"ps", "-p", "99999"}, "  PID TTY          TIME CMD\n", "", 1},
		{[]string{"ps", "--bogus"}, "", "error: unknown gnu long option\n" + psUsage, 1},
		{[]string{"ps", "-o", "bogus"}, "", "error: unknown user-defined format specifier \"bogus\"\n" + psUsage, 1},
		{[]string{"ps", "-u", "root"}, "  PID TTY          TIME CMD\n", "", 1},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		e := &Env{Args: c.args, Stdout: &out, Stderr: &errb, Dir: "/w", Procs: func() []Proc { return procs }}
		code, _ := Lookup("ps").Run(e)
		got := out.String()
		if strings.HasSuffix(c.out, "COMMAND\n") || strings.HasSuffix(c.out, "CMD\n") && len(c.args) > 1 && c.args[1] == "-ef" {
			got = got[:strings.IndexByte(got, '\n')+1] // the rows carry the clock
		}
		if got != c.out || errb.String() != c.err || code != c.exit {
			t.Errorf("%q = %d\n%q\n%q; want %d\n%q\n%q", c.args, code, got, errb.String(), c.exit, c.out, c.err)
		}
	}
}

// mkfifo makes no FIFO (a workspace holds none) but fails as GNU would
// first: a missing parent, an existing name, a read-only mount.
func TestMkfifo(t *testing.T) {
	runCases(t, []utilCase{
		{name: "refused", args: []string{"mkfifo", "p"}, wantErr: "mkfifo: cannot create fifo 'p': Operation not supported\n", wantExit: 1,
			wantFiles: map[string]string{"/w/p": "<absent>"}},
		{name: "exists", args: []string{"mkfifo", "f"}, files: map[string]string{"/w/f": "x"}, wantErr: "mkfifo: cannot create fifo 'f': File exists\n", wantExit: 1},
		{name: "no parent", args: []string{"mkfifo", "d/p"}, wantErr: "mkfifo: cannot create fifo 'd/p': No such file or directory\n", wantExit: 1},
		{name: "read-only", args: []string{"mkfifo", "/ro/p"}, wantErr: "mkfifo: cannot create fifo '/ro/p': Read-only file system\n", wantExit: 1},
		{name: "hidden", args: []string{"mkfifo", "hidden/p"}, wantErr: "mkfifo: cannot create fifo 'hidden/p': No such file or directory\n", wantExit: 1},
		{name: "no operand", args: []string{"mkfifo"}, wantErr: "mkfifo: missing operand\nTry 'mkfifo --help' for more information.\n", wantExit: 1},
		{name: "bad mode", args: []string{"mkfifo", "-m", "999", "p"}, wantErr: "mkfifo: invalid mode\n", wantExit: 1},
	})
}
