package utils

import (
	"testing"
	"time"
)

func TestCp(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/a": "A", "/w/b": "B", "/w/d/x": "X", "/w/d/sub/y": "Y", "/w/out/": "", "/w/secret": "k"}
	runCases(t, []utilCase{
		{name: "file to new name", args: []string{"cp", "a", "c"}, files: files, wantFiles: map[string]string{"/w/c": "A", "/w/a": "A"}},
		{name: "overwrites", args: []string{"cp", "a", "b"}, files: files, wantFiles: map[string]string{"/w/b": "A"}},
		{name: "into directory", args: []string{"cp", "a", "b", "out"}, files: files, wantFiles: map[string]string{"/w/out/a": "A", "/w/out/b": "B"}},
		{name: "target directory option", args: []string{"cp", "-t", "out", "a"}, files: files, wantFiles: map[string]string{"/w/out/a": "A"}},
		{name: "no clobber", args: []string{"cp", "-n", "a", "b"}, files: files, wantFiles: map[string]string{"/w/b": "B"}},
		{name: "verbose", args: []string{"cp", "-v", "a", "c"}, files: files, wantOut: "'a' -> 'c'\n"},
		{name: "recursive", args: []string{"cp", "-r", "d", "e"}, files: files,
			wantFiles: map[string]string{"/w/e/x": "X", "/w/e/sub/y": "Y", "/w/d/x": "X"}},
		{name: "recursive into existing directory", args: []string{"cp", "-R", "d", "out"}, files: files,
			wantFiles: map[string]string{"/w/out/d/sub/y": "Y"}},
		{name: "directory without -r", args: []string{"cp", "d", "e"}, files: files,
			wantErr: "cp: -r not specified; omitting directory 'd'\n", wantExit: 1},
		{name: "missing source", args: []string{"cp", "nope", "c"}, files: files,
			wantErr: "cp: cannot stat 'nope': No such file or directory\n", wantExit: 1},
		{name: "trailing slash asks for a directory", args: []string{"cp", "a", "new/"}, files: files,
			wantErr: "cp: cannot create regular file 'new/': Not a directory\n", wantExit: 1, wantFiles: map[string]string{"/w/new": "<absent>"}},
		{name: "trailing slash on a file", args: []string{"cp", "a", "b/"}, files: files,
			wantErr: "cp: cannot stat 'b/': Not a directory\n", wantExit: 1, wantFiles: map[string]string{"/w/b": "B"}},
		{name: "trailing slash names a new directory copy", args: []string{"cp", "-r", "d", "new/"}, files: files,
			wantFiles: map[string]string{"/w/new/x": "X"}},
		{name: "same file", args: []string{"cp", "a", "a"}, files: files,
			wantErr: "cp: 'a' and 'a' are the same file\n", wantExit: 1},
		{name: "into itself", args: []string{"cp", "-r", "d", "d/sub"}, files: files,
			wantErr: "cp: cannot copy a directory, 'd', into itself, 'd/sub/d'\n", wantExit: 1},
		{name: "several sources need a directory", args: []string{"cp", "a", "b", "c"}, files: files,
			wantErr: "cp: target 'c': No such file or directory\n", wantExit: 1},
		{name: "several sources onto a file", args: []string{"cp", "a", "b", "a"}, files: files,
			wantErr: "cp: target 'a': Not a directory\n", wantExit: 1},
		{name: "missing destination", args: []string{"cp", "a"}, files: files,
			wantErr: "cp: missing destination file operand after 'a'\nTry 'cp --help' for more information.\n", wantExit: 1},
		{name: "missing operands", args: []string{"cp"},
			wantErr: "cp: missing file operand\nTry 'cp --help' for more information.\n", wantExit: 1},
		{name: "read-only target", args: []string{"cp", "a", "/ro/a"}, files: files,
			wantErr: "cp: cannot create regular file '/ro/a': Read-only file system\n", wantExit: 1},
		{name: "refused source", args: []string{"cp", "secret", "c"}, files: files,
			wantErr: "cp: cannot open 'secret' for reading: " + secretReason + "\n", wantExit: 1, wantFiles: map[string]string{"/w/c": "<absent>"}},
		{name: "directory over file", args: []string{"cp", "a", "out"}, files: map[string]string{"/w/a": "A", "/w/out/a/": ""},
			wantErr: "cp: cannot overwrite directory 'out/a' with non-directory\n", wantExit: 1},
		{name: "link copied as link when recursive", args: []string{"cp", "-r", "d", "e"}, files: files, links: map[string]string{"/w/d/ln": "x"},
			wantFiles: map[string]string{"/w/e/ln": "<link>x"}},
		{name: "link followed on the command line", args: []string{"cp", "ln", "c"}, files: files, links: map[string]string{"/w/ln": "a"},
			wantFiles: map[string]string{"/w/c": "A"}},
		{name: "across mounts", args: []string{"cp", "a", "/tmp/a"}, files: files, wantFiles: map[string]string{"/tmp/a": "A"}},
	})
}

func TestCpPreservesTimes(t *testing.T) {
	t.Parallel()
	old := time.Date(2020, 5, 6, 7, 8, 9, 0, time.UTC)
	c := utilCase{args: []string{"cp", "-p", "a", "c"}, files: map[string]string{"/w/a": "A"}, times: map[string]time.Time{"/w/a": old}}
	fsys, _, errs, exit := runUtil(t, c)
	if exit != 0 || errs != "" {
		t.Fatalf("cp -p: %d %q", exit, errs)
	}
	info, err := fsys.Stat("/w/c")
	if err != nil || !info.ModTime().Equal(old) {
		t.Errorf("copy mtime = %v (%v), want %v", info.ModTime(), err, old)
	}
}

func TestMv(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/a": "A", "/w/b": "B", "/w/d/x": "X", "/w/out/": "", "/w/e/": ""}
	runCases(t, []utilCase{
		{name: "rename", args: []string{"mv", "a", "c"}, files: files, wantFiles: map[string]string{"/w/c": "A", "/w/a": "<absent>"}},
		{name: "replace", args: []string{"mv", "a", "b"}, files: files, wantFiles: map[string]string{"/w/b": "A", "/w/a": "<absent>"}},
		{name: "into directory", args: []string{"mv", "a", "b", "out"}, files: files,
			wantFiles: map[string]string{"/w/out/a": "A", "/w/out/b": "B", "/w/a": "<absent>"}},
		{name: "directory", args: []string{"mv", "d", "z"}, files: files, wantFiles: map[string]string{"/w/z/x": "X", "/w/d": "<absent>"}},
		{name: "no clobber", args: []string{"mv", "-n", "a", "b"}, files: files, wantFiles: map[string]string{"/w/a": "A", "/w/b": "B"}},
		{name: "verbose", args: []string{"mv", "-v", "a", "c"}, files: files, wantOut: "renamed 'a' -> 'c'\n"},
		{name: "trailing slash asks for a directory", args: []string{"mv", "a", "new/"}, files: files,
			wantErr: "mv: cannot move 'a' to 'new/': Not a directory\n", wantExit: 1, wantFiles: map[string]string{"/w/a": "A"}},
		{name: "directory to a slashed new name", args: []string{"mv", "d", "z/"}, files: files, wantFiles: map[string]string{"/w/z/x": "X"}},
		{name: "missing", args: []string{"mv", "nope", "c"}, files: files,
			wantErr: "mv: cannot stat 'nope': No such file or directory\n", wantExit: 1},
		{name: "into itself", args: []string{"mv", "d", "d/sub"}, files: files,
			wantErr: "mv: cannot move 'd' to a subdirectory of itself, 'd/sub'\n", wantExit: 1},
		{name: "file over directory", args: []string{"mv", "a", "e", "-T"}, files: files,
			wantErr: "mv: cannot overwrite directory 'e' with non-directory\n", wantExit: 1},
		{name: "across mounts", args: []string{"mv", "d", "/tmp/d"}, files: files,
			wantFiles: map[string]string{"/tmp/d/x": "X", "/w/d": "<absent>"}},
		{name: "from read-only mount", args: []string{"mv", "/ro/r", "r"}, files: map[string]string{"/ro/r": "R"},
			// As on Linux: across file systems mv copies, then fails to remove.
			wantErr: "mv: cannot remove '/ro/r': Read-only file system\n", wantExit: 1,
			wantFiles: map[string]string{"/w/r": "R", "/ro/r": "R"}},
		{name: "rename refused", args: []string{"mv", "/ro/r", "/ro/s"}, files: map[string]string{"/ro/r": "R"},
			wantErr: "mv: cannot move '/ro/r' to '/ro/s': Read-only file system\n", wantExit: 1},
		{name: "same file", args: []string{"mv", "a", "./a"}, files: files,
			wantErr: "mv: 'a' and './a' are the same file\n", wantExit: 1},
	})
}

func TestCopyOperands(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		argv []string
		want []OperandRef
	}{
		{[]string{"cp", "a", "b"}, []OperandRef{{Index: 1, Kind: Read}, {Index: 2, Kind: Target}}},
		{[]string{"cp", "-r", "a", "b", "dir"}, []OperandRef{{Index: 2}, {Index: 3}, {Index: 4, Kind: Target}}},
		{[]string{"mv", "-t", "dir", "a"}, []OperandRef{{Index: 2, Kind: Target}, {Index: 3}}},
		{[]string{"mv", "--target-directory=dir", "a"}, []OperandRef{{Index: 1, Kind: Target, Path: "dir"}, {Index: 2}}},
	} {
		t.Run(c.argv[0]+" "+c.argv[1], func(t *testing.T) {
			t.Parallel()
			got := Lookup(c.argv[0]).Operands(c.argv)
			if len(got) != len(c.want) {
				t.Fatalf("operands = %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("operand %d = %+v, want %+v", i, got[i], c.want[i])
				}
			}
		})
	}
}
