package utils

import (
	"io/fs"
	"testing"
	"time"
)

func TestMkdir(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/f": "x", "/w/d/": ""}
	runCases(t, []utilCase{
		{name: "creates", args: []string{"mkdir", "new"}, wantFiles: map[string]string{"/w/new": "<dir>"}},
		{name: "several", args: []string{"mkdir", "a", "b"}, wantFiles: map[string]string{"/w/a": "<dir>", "/w/b": "<dir>"}},
		{name: "exists", args: []string{"mkdir", "d"}, files: files,
			wantErr: "mkdir: cannot create directory 'd': File exists\n", wantExit: 1},
		{name: "missing parent", args: []string{"mkdir", "x/y"},
			wantErr: "mkdir: cannot create directory 'x/y': No such file or directory\n", wantExit: 1},
		{name: "parents", args: []string{"mkdir", "-p", "x/y/z"}, wantFiles: map[string]string{"/w/x/y/z": "<dir>"}},
		{name: "parents tolerate existing", args: []string{"mkdir", "-p", "d"}, files: files},
		{name: "parents through a file", args: []string{"mkdir", "-p", "f/x"}, files: files,
			wantErr: "mkdir: cannot create directory 'f': Not a directory\n", wantExit: 1},
		{name: "verbose parents", args: []string{"mkdir", "-pv", "x/y"},
			wantOut: "mkdir: created directory 'x'\nmkdir: created directory 'x/y'\n"},
		{name: "read-only mount", args: []string{"mkdir", "/ro/x"},
			wantErr: "mkdir: cannot create directory '/ro/x': Read-only file system\n", wantExit: 1},
		{name: "continues after failure", args: []string{"mkdir", "d", "e"}, files: files,
			wantErr: "mkdir: cannot create directory 'd': File exists\n", wantExit: 1, wantFiles: map[string]string{"/w/e": "<dir>"}},
		{name: "missing operand", args: []string{"mkdir"},
			wantErr: "mkdir: missing operand\nTry 'mkdir --help' for more information.\n", wantExit: 1},
		{name: "invalid mode", args: []string{"mkdir", "-m", "abc", "x"}, wantErr: "mkdir: invalid mode 'abc'\n", wantExit: 1},
	})
}

func TestMkdirMode(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		spec string
		want fs.FileMode
	}{{"700", 0o700}, {"u=rwx,go=", 0o700}, {"a=rx", 0o555}, {"go-w", 0o755}, {"+t", 0o777 | fs.ModeSticky}} {
		t.Run(c.spec, func(t *testing.T) {
			t.Parallel()
			fsys, _, errs, exit := runUtil(t, utilCase{args: []string{"mkdir", "-m", c.spec, "d"}})
			if exit != 0 || errs != "" {
				t.Fatalf("mkdir -m %s: %d %q", c.spec, exit, errs)
			}
			if got := fileMode(t, fsys, "/w/d") &^ fs.ModeDir; got != c.want {
				t.Errorf("mode = %v, want %v", got, c.want)
			}
		})
	}
}

func TestRm(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/f": "x", "/w/g": "y", "/w/d/a": "1", "/w/d/sub/b": "2", "/w/e/": "", "/w/secret": "k"}
	runCases(t, []utilCase{
		{name: "file", args: []string{"rm", "f"}, files: files, wantFiles: map[string]string{"/w/f": "<absent>", "/w/g": "y"}},
		{name: "missing", args: []string{"rm", "nope"}, wantErr: "rm: cannot remove 'nope': No such file or directory\n", wantExit: 1},
		{name: "force ignores missing", args: []string{"rm", "-f", "nope", "f"}, files: files, wantFiles: map[string]string{"/w/f": "<absent>"}},
		{name: "force without operands", args: []string{"rm", "-f"}},
		{name: "missing operand", args: []string{"rm"}, wantErr: "rm: missing operand\nTry 'rm --help' for more information.\n", wantExit: 1},
		{name: "directory needs -r", args: []string{"rm", "d"}, files: files,
			wantErr: "rm: cannot remove 'd': Is a directory\n", wantExit: 1, wantFiles: map[string]string{"/w/d/a": "1"}},
		{name: "recursive", args: []string{"rm", "-r", "d"}, files: files, wantFiles: map[string]string{"/w/d": "<absent>"}},
		{name: "empty dir with -d", args: []string{"rm", "-d", "e"}, files: files, wantFiles: map[string]string{"/w/e": "<absent>"}},
		{name: "non-empty dir with -d", args: []string{"rm", "-d", "d"}, files: files,
			wantErr: "rm: cannot remove 'd': Directory not empty\n", wantExit: 1},
		{name: "verbose", args: []string{"rm", "-rv", "d"}, files: files,
			wantOut: "removed 'd/a'\nremoved 'd/sub/b'\nremoved directory 'd/sub'\nremoved directory 'd'\n"},
		{name: "refuses dot", args: []string{"rm", "-r", "."}, files: files,
			wantErr: "rm: refusing to remove '.' or '..' directory: skipping '.'\n", wantExit: 1},
		{name: "refuses root", args: []string{"rm", "-rf", "/"},
			wantErr: "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n", wantExit: 1},
		{name: "refused file", args: []string{"rm", "secret", "f"}, files: files,
			wantErr: "rm: cannot remove 'secret': " + secretReason + "\n", wantExit: 1,
			wantFiles: map[string]string{"/w/secret": "<file>", "/w/f": "<absent>"}},
		{name: "read-only mount", args: []string{"rm", "/ro/x"}, files: map[string]string{"/ro/x": "1"},
			wantErr: "rm: cannot remove '/ro/x': Read-only file system\n", wantExit: 1},
		{name: "hidden reads as missing", args: []string{"rm", "hidden"}, files: map[string]string{"/w/hidden": "1"},
			wantErr: "rm: cannot remove 'hidden': No such file or directory\n", wantExit: 1},
		{name: "interactive", args: []string{"rm", "-i", "f", "g"}, files: files, stdin: "y\nn\n",
			wantErr:   "rm: remove regular file 'f'? rm: remove regular file 'g'? ",
			wantFiles: map[string]string{"/w/f": "<absent>", "/w/g": "y"}},
		{name: "symlink itself", args: []string{"rm", "ln"}, files: files, links: map[string]string{"/w/ln": "f"},
			wantFiles: map[string]string{"/w/ln": "<absent>", "/w/f": "x"}},
	})
}

func TestTouch(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/f": "keep", "/w/ref": "r"}
	runCases(t, []utilCase{
		{name: "creates empty", args: []string{"touch", "new"}, wantFiles: map[string]string{"/w/new": ""}},
		{name: "keeps content", args: []string{"touch", "f"}, files: files, wantFiles: map[string]string{"/w/f": "keep"}},
		{name: "no create", args: []string{"touch", "-c", "new"}, wantFiles: map[string]string{"/w/new": "<absent>"}},
		{name: "read-only mount", args: []string{"touch", "/ro/x"},
			wantErr: "touch: cannot touch '/ro/x': Read-only file system\n", wantExit: 1},
		{name: "missing directory", args: []string{"touch", "no/x"},
			wantErr: "touch: cannot touch 'no/x': No such file or directory\n", wantExit: 1},
		{name: "bad date", args: []string{"touch", "-d", "someday", "f"}, files: files,
			wantErr: "touch: invalid date format 'someday'\n", wantExit: 1},
		{name: "bad stamp", args: []string{"touch", "-t", "2024", "f"}, files: files,
			wantErr: "touch: invalid date format '2024'\n", wantExit: 1},
		{name: "missing reference", args: []string{"touch", "-r", "nope", "f"}, files: files,
			wantErr: "touch: failed to get attributes of 'nope': No such file or directory\n", wantExit: 1},
		{name: "missing operand", args: []string{"touch"},
			wantErr: "touch: missing file operand\nTry 'touch --help' for more information.\n", wantExit: 1},
	})
}

func TestTouchTimes(t *testing.T) {
	t.Parallel()
	ref := time.Date(2021, 6, 7, 8, 9, 10, 0, time.UTC)
	for _, c := range []struct {
		name string
		args []string
		want time.Time
	}{
		{"date", []string{"touch", "-d", "2020-02-03 04:05:06", "f"}, time.Date(2020, 2, 3, 4, 5, 6, 0, time.UTC)},
		{"iso with zone", []string{"touch", "-d", "2020-02-03T04:05:06+02:00", "f"}, time.Date(2020, 2, 3, 2, 5, 6, 0, time.UTC)},
		{"epoch", []string{"touch", "-d", "@86400", "f"}, time.Unix(86400, 0)},
		{"stamp", []string{"touch", "-t", "202001021530.45", "f"}, time.Date(2020, 1, 2, 15, 30, 45, 0, time.UTC)},
		{"reference", []string{"touch", "-r", "ref", "f"}, ref},
		{"new file with date", []string{"touch", "-d", "2019-01-01", "new"}, time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cs := utilCase{args: c.args, files: map[string]string{"/w/f": "x", "/w/ref": "r"}, times: map[string]time.Time{"/w/ref": ref}}
			fsys, _, errs, exit := runUtil(t, cs)
			if exit != 0 || errs != "" {
				t.Fatalf("%v: %d %q", c.args, exit, errs)
			}
			target := "/w/" + c.args[len(c.args)-1]
			info, err := fsys.Stat(target)
			if err != nil {
				t.Fatal(err)
			}
			if !info.ModTime().Equal(c.want) {
				t.Errorf("mtime = %v, want %v", info.ModTime(), c.want)
			}
		})
	}
}
