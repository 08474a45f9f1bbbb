package utils

import (
	"strings"
	"testing"
	"time"
)

func TestLs(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/w/a.txt":     "alpha\n",
		"/w/b.txt":     "0123456789",
		"/w/.dot":      "",
		"/w/dir/x":     "x",
		"/w/dir/sub/y": "y",
	}
	old := time.Date(2020, 1, 2, 3, 4, 0, 0, time.UTC)
	runCases(t, []utilCase{
		{name: "cwd one per line", args: []string{"ls"}, files: files, wantOut: "a.txt\nb.txt\ndir\n"},
		{name: "all", args: []string{"ls", "-a"}, files: files, wantOut: ".\n..\n.dot\na.txt\nb.txt\ndir\n"},
		{name: "almost all", args: []string{"ls", "-A"}, files: files, wantOut: ".dot\na.txt\nb.txt\ndir\n"},
		{name: "long", args: []string{"ls", "-l"}, files: files, wantOut: "total 12\n" +
			"-rw-r--r-- 1 root root    6 Mar 15  2024 a.txt\n" +
			"-rw-r--r-- 1 root root   10 Mar 15  2024 b.txt\n" +
			"drwxr-xr-x 3 root root 4096 Mar 15  2024 dir\n"},
		{name: "long human", args: []string{"ls", "-lh", "big"}, files: map[string]string{"/w/big": strings.Repeat("x", 2000)},
			wantOut: "-rw-r--r-- 1 root root 2.0K Mar 15  2024 big\n"},
		{name: "long human total", args: []string{"ls", "-lhn"}, files: map[string]string{"/w/big": strings.Repeat("x", 5000)},
			wantOut: "total 8.0K\n-rw-r--r-- 1 0 0 4.9K Mar 15  2024 big\n"},
		{name: "long symlink", args: []string{"ls", "-l", "ln"}, files: files, links: map[string]string{"/w/ln": "a.txt"},
			wantOut: "lrwxrwxrwx 1 root root 5 Mar 15  2024 ln -> a.txt\n"},
		{name: "classify", args: []string{"ls", "-F"}, files: files, links: map[string]string{"/w/ln": "a.txt"},
			wantOut: "a.txt\nb.txt\ndir/\nln@\n"},
		{name: "slash indicator", args: []string{"ls", "-p", "dir"}, files: files, wantOut: "sub/\nx\n"},
		{name: "missing operand is serious", args: []string{"ls", "missing", "a.txt"}, files: files,
			wantOut: "a.txt\n", wantErr: "ls: cannot access 'missing': No such file or directory\n", wantExit: 2},
		{name: "hidden reads as missing", args: []string{"ls", "hidden"}, files: map[string]string{"/w/hidden/x": "1"},
			wantErr: "ls: cannot access 'hidden': No such file or directory\n", wantExit: 2},
		{name: "hidden is absent from listings", args: []string{"ls"}, files: map[string]string{"/w/hidden": "1", "/w/shown": "2"},
			wantOut: "shown\n"},
		{name: "refused directory", args: []string{"ls", "/w/secret"}, files: map[string]string{"/w/secret/k": "1"},
			wantErr: "ls: cannot open directory '/w/secret': " + secretReason + "\n", wantExit: 2},
		{name: "refused file still listed", args: []string{"ls", "-l", "/w/secret"}, files: map[string]string{"/w/secret": "k\n"},
			wantOut: "-rw-r--r-- 1 root root 2 Mar 15  2024 /w/secret\n"},
		{name: "files then directories with headings", args: []string{"ls", "dir", "a.txt"}, files: files,
			wantOut: "a.txt\n\ndir:\nsub\nx\n"},
		{name: "several directories", args: []string{"ls", "dir/sub", "dir"}, files: files,
			wantOut: "dir:\nsub\nx\n\ndir/sub:\ny\n"},
		{name: "directory itself", args: []string{"ls", "-d", "dir", "/w"}, files: files, wantOut: "/w\ndir\n"},
		{name: "recursive", args: []string{"ls", "-R", "dir"}, files: files,
			wantOut: "dir:\nsub\nx\n\ndir/sub:\ny\n"},
		{name: "recursive cwd", args: []string{"ls", "-R"}, dir: "/w/dir", files: files,
			wantOut: ".:\nsub\nx\n\n./sub:\ny\n"},
		{name: "sort by time", args: []string{"ls", "-t"}, files: files,
			times:   map[string]time.Time{"/w/a.txt": old, "/w/dir": old.Add(time.Hour)},
			wantOut: "b.txt\ndir\na.txt\n"},
		{name: "sort by time reversed", args: []string{"ls", "-tr"}, files: files,
			times:   map[string]time.Time{"/w/a.txt": old, "/w/dir": old.Add(time.Hour)},
			wantOut: "a.txt\ndir\nb.txt\n"},
		{name: "sort by size", args: []string{"ls", "-S"}, files: files, wantOut: "dir\nb.txt\na.txt\n"},
		{name: "reverse", args: []string{"ls", "-r"}, files: files, wantOut: "dir\nb.txt\na.txt\n"},
		{name: "byte order", args: []string{"ls"}, files: map[string]string{"/w/b": "", "/w/B": "", "/w/_a": "", "/w/a": ""},
			wantOut: "B\n_a\na\nb\n"},
		{name: "old date shows year", args: []string{"ls", "-l", "a.txt"}, files: files,
			times:   map[string]time.Time{"/w/a.txt": old},
			wantOut: "-rw-r--r-- 1 root root 6 Jan  2  2020 a.txt\n"},
		{name: "long iso", args: []string{"ls", "-l", "--time-style=long-iso", "a.txt"}, files: files,
			times:   map[string]time.Time{"/w/a.txt": old},
			wantOut: "-rw-r--r-- 1 root root 6 2020-01-02 03:04 a.txt\n"},
		{name: "size column", args: []string{"ls", "-s"}, files: files, wantOut: "total 12\n4 a.txt\n4 b.txt\n4 dir\n"},
		{name: "comma list", args: []string{"ls", "-m"}, files: files, wantOut: "a.txt, b.txt, dir\n"},
		{name: "columns", args: []string{"ls", "-C"}, files: files, wantOut: "a.txt  b.txt  dir\n"},
		{name: "columns wrap", args: []string{"ls", "-C", "-w", "12"}, files: files, wantOut: "a.txt  dir\nb.txt\n"},
		{name: "columns align with tabs", args: []string{"ls", "-C"},
			files:   map[string]string{"/w/a.txt": "", "/w/b.txt": "", "/w/big": "", "/w/ctx": "", "/w/dup": "", "/w/e": "", "/w/h": ""},
			wantOut: "a.txt  b.txt  big  ctx\tdup  e\th\n"},
		{name: "across", args: []string{"ls", "-x", "-w", "19"}, files: map[string]string{"/w/a": "", "/w/b": "", "/w/c": "", "/w/dd": "", "/w/eeeeee": ""},
			wantOut: "a\tb  c  dd\neeeeee\n"},
		{name: "down narrow", args: []string{"ls", "-C", "-w", "12"}, files: map[string]string{"/w/a": "", "/w/b": "", "/w/c": "", "/w/dd": "", "/w/eeeeee": ""},
			wantOut: "a  dd\nb  eeeeee\nc\n"},
		{name: "ignore pattern", args: []string{"ls", "-I", "*.txt"}, files: files, wantOut: "dir\n"},
		{name: "empty directory long", args: []string{"ls", "-l", "e"}, files: map[string]string{"/w/e/": ""}, wantOut: "total 0\n"},
		{name: "invalid option", args: []string{"ls", "-y"},
			wantErr: "ls: invalid option -- 'y'\nTry 'ls --help' for more information.\n", wantExit: 2},
		{name: "root lists mounts", args: []string{"ls", "/"}, wantOut: "dev\nro\ntmp\nw\n"},
	})
}

func TestLsRecentDateShowsTime(t *testing.T) {
	t.Parallel()
	recent := time.Now().Add(-time.Hour).UTC().Truncate(time.Minute)
	c := utilCase{args: []string{"ls", "-l", "f"}, files: map[string]string{"/w/f": "abc"},
		times: map[string]time.Time{"/w/f": recent}}
	_, out, _, _ := runUtil(t, c)
	want := "-rw-r--r-- 1 root root 3 " + recent.Format("Jan _2 15:04") + " f\n"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
}

func TestHumanSize(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0"}, {1023, "1023"}, {1024, "1.0K"}, {1025, "1.1K"}, {1536, "1.5K"}, {10240, "10K"}, {10241, "11K"},
		{1048575, "1.0M"}, {1048576, "1.0M"}, {5 << 30, "5.0G"}, {1023 * 1024, "1023K"}} {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			if got := humanSize(c.n, false); got != c.want {
				t.Errorf("humanSize(%d) = %q, want %q", c.n, got, c.want)
			}
		})
	}
}

func TestVoices(t *testing.T) {
	t.Parallel()
	runVoiceCases(t, []voiceCase{
		{"cat", "/vault/aws.token", secretReason, "cat: /vault/aws.token: credentials are never read by hand\n"},
		{"cat", "a b", "No such file or directory", "cat: 'a b': No such file or directory\n"},
		{"ls", "x", "No such file or directory", "ls: cannot access 'x': No such file or directory\n"},
		{"ls", "/vault", secretReason, "ls: cannot open directory '/vault': credentials are never read by hand\n"},
		{"grep", "/vault/aws.token", secretReason, "grep: /vault/aws.token: credentials are never read by hand\n"},
		{"egrep", "x", "No such file or directory", "grep: x: No such file or directory\n"},
		{"head", "x", "No such file or directory", "head: cannot open 'x' for reading: No such file or directory\n"},
		{"rm", "x", "No such file or directory", "rm: cannot remove 'x': No such file or directory\n"},
		{"mkdir", "x", "File exists", "mkdir: cannot create directory 'x': File exists\n"},
		{"touch", "/runbook/x", "Read-only file system", "touch: cannot touch '/runbook/x': Read-only file system\n"},
		{"wc", "x", "No such file or directory", "wc: x: No such file or directory\n"},
		{"find", "x", "No such file or directory", "find: 'x': No such file or directory\n"},
	})
}

// TestVoiceMatchesRun checks, utility by utility, that Voice renders the
// very line a run prints when an operand is missing or refused, and that
// the run exits with OperandExit (G-7.3, G-11.1).
func TestVoiceMatchesRun(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/secret": "k\n", "/w/secretdir/k": "1", "/w/x": "x\n"}
	cases := []struct {
		argv    []string
		operand int
		msg     string
	}{
		{[]string{"cat", "nope"}, 1, "No such file or directory"},
		{[]string{"cat", "/w/secret"}, 1, secretReason},
		{[]string{"ls", "nope"}, 1, "No such file or directory"},
		{[]string{"ls", "/w/secretdir"}, 1, secretReason},
		{[]string{"head", "nope"}, 1, "No such file or directory"},
		{[]string{"head", "/w/secret"}, 1, secretReason},
		{[]string{"tail", "/w/secret"}, 1, secretReason},
		{[]string{"wc", "nope"}, 1, "No such file or directory"},
		{[]string{"wc", "/w/secret"}, 1, secretReason},
		{[]string{"grep", "k", "nope"}, 2, "No such file or directory"},
		{[]string{"grep", "k", "/w/secret"}, 2, secretReason},
		{[]string{"find", "nope"}, 1, "No such file or directory"},
		{[]string{"find", "/w/secretdir", "-name", "zzz"}, 1, secretReason},
		{[]string{"sort", "nope"}, 1, "No such file or directory"},
		{[]string{"sort", "/w/secret"}, 1, secretReason},
		{[]string{"uniq", "nope"}, 1, "No such file or directory"},
		{[]string{"uniq", "/w/secret"}, 1, secretReason},
		{[]string{"rm", "nope"}, 1, "No such file or directory"},
		{[]string{"rm", "/w/secret"}, 1, secretReason},
		{[]string{"mkdir", "nope/x"}, 1, "No such file or directory"},
		{[]string{"mkdir", "/w/secretdir/y"}, 1, secretReason},
		{[]string{"touch", "nope/x"}, 1, "No such file or directory"},
		{[]string{"touch", "/w/secret"}, 1, secretReason},
		{[]string{"cp", "nope", "y"}, 1, "No such file or directory"},
		{[]string{"cp", "/w/secret", "y"}, 1, secretReason},
		{[]string{"mv", "nope", "y"}, 1, "No such file or directory"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.argv, " "), func(t *testing.T) {
			t.Parallel()
			_, _, errs, exit := runUtil(t, utilCase{args: c.argv, files: files})
			u := Lookup(c.argv[0])
			want := u.RenderVoice(c.argv[c.operand], c.msg)
			if errs != want {
				t.Errorf("run printed %q, voice is %q", errs, want)
			}
			if exit != u.OperandExit {
				t.Errorf("exit = %d, OperandExit = %d", exit, u.OperandExit)
			}
		})
	}
}
