package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestLnAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "ln symbolic", args: []string{"ln", "-s", "f", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: failed to create symbolic link 'l': File exists\n", wantExit: 1},
		{name: "ln symbolic verbose", args: []string{"ln", "-sv", "f", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: failed to create symbolic link 'l': File exists\n", wantExit: 1},
		{name: "ln exists", args: []string{"ln", "-s", "f", "d"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: ""},
		{name: "ln into dir", args: []string{"ln", "-sv", "f", "e"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "'e/f' -> 'f'\n"},
		{name: "ln no target dir", args: []string{"ln", "-sT", "f", "e"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: failed to create symbolic link 'e': File exists\n", wantExit: 1},
		{name: "ln force", args: []string{"ln", "-sfv", "d", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "'f' -> 'd'\n"},
		{name: "ln many into dir", args: []string{"ln", "-sv", "f", "d/y", "e"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "'e/f' -> 'f'\n'e/y' -> 'd/y'\n"},
		{name: "ln target not dir", args: []string{"ln", "-s", "f", "g", "h"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: target 'h': No such file or directory\n", wantExit: 1},
		{name: "ln missing operand", args: []string{"ln"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: missing file operand\nTry 'ln --help' for more information.\n", wantExit: 1},
		{name: "ln single", args: []string{"ln", "-sv", "d/y"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "'./y' -> 'd/y'\n"},
		{name: "ln dangling parent", args: []string{"ln", "-s", "f", "nope/x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: failed to create symbolic link 'nope/x': No such file or directory\n", wantExit: 1},
		{name: "ln t option", args: []string{"ln", "-sv", "-t", "e", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "'e/f' -> 'f'\n"},
		{name: "ln relative", args: []string{"ln", "-srv", "f", "e/l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "'e/l' -> '../f'\n"},
		{name: "ln relative without s", args: []string{"ln", "-r", "f", "x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "ln: cannot do --relative without --symbolic\n", wantExit: 1},
		{name: "ln force onto dir", args: []string{"ln", "-sf", "f", "e/"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: ""},
	})
}

func TestLnMakesLinksThroughTheVFS(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/f": "data\n", "/w/d/": ""}
	runCases(t, []utilCase{
		{name: "symlink made", args: []string{"ln", "-s", "f", "l"}, files: files, wantFiles: map[string]string{"/w/l": "<link>f"}},
		{name: "into directory", args: []string{"ln", "-s", "../f", "d"}, files: files, wantFiles: map[string]string{"/w/d/f": "<link>../f"}},
		{name: "force replaces", args: []string{"ln", "-sf", "d", "f"}, files: files, wantFiles: map[string]string{"/w/f": "<link>d"}},
		{name: "relative", args: []string{"ln", "-sr", "f", "d/l"}, files: files, wantFiles: map[string]string{"/w/d/l": "<link>../f"}},
		{name: "no dereference replaces link to dir", args: []string{"ln", "-sfn", "f", "ld"}, files: files, links: map[string]string{"/w/ld": "d"},
			wantFiles: map[string]string{"/w/ld": "<link>f", "/w/d/f": "<absent>"}},
		// A memory mount keeps a second name of the file.
		{name: "hard link", args: []string{"ln", "f", "h"}, files: files,
			wantFiles: map[string]string{"/w/h": files["/w/f"], "/w/f": files["/w/f"]}},
		{name: "hard link across mounts", args: []string{"ln", "f", "/ro/h"}, files: files,
			wantErr: "ln: failed to create hard link '/ro/h' => 'f': Invalid cross-device link\n", wantExit: 1},
		{name: "hard link refused", args: []string{"ln", "f", "secret"}, files: files,
			wantErr: "ln: failed to create hard link 'secret' => 'f': " + secretReason + "\n", wantExit: 1, wantFiles: map[string]string{"/w/secret": "<absent>"}},
		{name: "hard link to a directory", args: []string{"ln", "d", "h"}, files: map[string]string{"/w/d/": ""},
			wantErr: "ln: d: hard link not allowed for directory\n", wantExit: 1},
		{name: "hard link missing target", args: []string{"ln", "nope", "h"}, files: files,
			wantErr: "ln: failed to access 'nope': No such file or directory\n", wantExit: 1},
		{name: "read-only", args: []string{"ln", "-s", "f", "/ro/l"}, files: files,
			wantErr: "ln: failed to create symbolic link '/ro/l': Read-only file system\n", wantExit: 1},
		{name: "refused", args: []string{"ln", "-s", "f", "secret"}, files: files,
			wantErr: "ln: failed to create symbolic link 'secret': " + secretReason + "\n", wantExit: 1},
		{name: "help", args: []string{"ln", "--help"}, wantOut: lnHelp},
	})
	runVoiceCases(t, []voiceCase{{utility: "ln", arg: "nope", msg: "No such file or directory", want: "ln: failed to access 'nope': No such file or directory\n"}})
	if got := Lookup("ln").RenderOperandVoice(Target, "secret", secretReason); got != "ln: failed to create symbolic link 'secret': "+secretReason+"\n" {
		t.Errorf("ln write voice = %q", got)
	}
	cases := []struct {
		argv []string
		want []OperandRef
	}{
		{[]string{"ln", "-s", "f", "l"}, []OperandRef{{Index: 3, Kind: Target}}},
		{[]string{"ln", "f", "l"}, []OperandRef{{Index: 2, Kind: Target}, {Index: 1, Kind: Read}}},
		{[]string{"ln", "-s", "-t", "d", "a", "b"}, []OperandRef{{Index: 3, Kind: Target}}},
	}
	for _, c := range cases {
		got := Lookup("ln").Operands(c.argv)
		if len(got) != len(c.want) {
			t.Errorf("%q operands = %+v, want %+v", c.argv, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q operand %d = %+v, want %+v", c.argv, i, got[i], c.want[i])
			}
		}
	}
}
