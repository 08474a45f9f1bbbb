package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestRmdirAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "rmdir empty", args: []string{"rmdir", "e"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: ""},
		{name: "rmdir missing", args: []string{"rmdir", "nope"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "rmdir: failed to remove 'nope': No such file or directory\n", wantExit: 1},
		{name: "rmdir file", args: []string{"rmdir", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "rmdir: failed to remove 'f': Not a directory\n", wantExit: 1},
		{name: "rmdir not empty", args: []string{"rmdir", "d"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "rmdir: failed to remove 'd': Directory not empty\n", wantExit: 1},
		{name: "rmdir verbose", args: []string{"rmdir", "-v", "e"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "rmdir: removing directory, 'e'\n"},
		{name: "rmdir parents", args: []string{"rmdir", "-pv", "a/b/c"}, files: map[string]string{"/w/a/b/c/": ""}, wantOut: "rmdir: removing directory, 'a/b/c'\nrmdir: removing directory, 'a/b'\nrmdir: removing directory, 'a'\n"},
		{name: "rmdir parents stops", args: []string{"rmdir", "-p", "x/y"}, files: map[string]string{"/w/x/y/": "", "/w/x/z": "z"}, wantOut: "", wantErr: "rmdir: failed to remove directory 'x': Directory not empty\n", wantExit: 1},
		{name: "rmdir ignore nonempty", args: []string{"rmdir", "--ignore-fail-on-non-empty", "d"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: ""},
		{name: "rmdir missing operand", args: []string{"rmdir"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "rmdir: missing operand\nTry 'rmdir --help' for more information.\n", wantExit: 1},
	})
}

func TestRmdirRemovesThroughTheVFS(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "gone afterwards", args: []string{"rmdir", "e"}, files: map[string]string{"/w/e/": ""}, wantFiles: map[string]string{"/w/e": "<absent>"}},
		{name: "parents gone", args: []string{"rmdir", "-p", "a/b/c"}, files: map[string]string{"/w/a/b/c/": ""}, wantFiles: map[string]string{"/w/a": "<absent>"}},
		{name: "read-only", args: []string{"rmdir", "/ro/e"}, files: map[string]string{"/ro/e/": ""},
			wantErr: "rmdir: failed to remove '/ro/e': Read-only file system\n", wantExit: 1},
		{name: "refused", args: []string{"rmdir", "secret"}, files: map[string]string{"/w/secret/": ""},
			wantErr: "rmdir: failed to remove 'secret': " + secretReason + "\n", wantExit: 1},
		{name: "hidden", args: []string{"rmdir", "hidden"}, files: map[string]string{"/w/hidden/": ""},
			wantErr: "rmdir: failed to remove 'hidden': No such file or directory\n", wantExit: 1},
		{name: "help", args: []string{"rmdir", "--help"}, wantOut: rmdirHelp},
	})
	runVoiceCases(t, []voiceCase{{utility: "rmdir", arg: "secret", msg: secretReason, want: "rmdir: failed to remove 'secret': " + secretReason + "\n"}})
}
