package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestReadlinkRealpathAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "readlink plain", args: []string{"readlink", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "f\n"},
		{name: "readlink not link", args: []string{"readlink", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantExit: 1},
		{name: "readlink verbose", args: []string{"readlink", "-v", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "readlink: f: Invalid argument\n", wantExit: 1},
		{name: "readlink f", args: []string{"readlink", "-f", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/f\n"},
		{name: "readlink f missing last", args: []string{"readlink", "-f", "nope"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/nope\n"},
		{name: "readlink f missing mid", args: []string{"readlink", "-f", "nope/x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantExit: 1},
		{name: "readlink e missing", args: []string{"readlink", "-e", "nope"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantExit: 1},
		{name: "readlink m", args: []string{"readlink", "-m", "nope/x/../y"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/nope/y\n"},
		{name: "readlink n", args: []string{"readlink", "-n", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "f"},
		{name: "readlink n many", args: []string{"readlink", "-n", "l", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "f\nf\n", wantErr: "readlink: ignoring --no-newline with multiple arguments\n"},
		{name: "readlink missing", args: []string{"readlink"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "readlink: missing operand\nTry 'readlink --help' for more information.\n", wantExit: 1},
		{name: "readlink dotdot", args: []string{"readlink", "-f", "d/sub/../y"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/d/y\n"},
		{name: "readlink through link dir", args: []string{"readlink", "-f", "ld/x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/d/sub/x\n"},
		{name: "realpath", args: []string{"realpath", "f", "l", "nope"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/f\n/w/f\n/w/nope\n"},
		{name: "realpath e", args: []string{"realpath", "-e", "nope", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/f\n", wantErr: "realpath: nope: No such file or directory\n", wantExit: 1},
		{name: "realpath m", args: []string{"realpath", "-m", "a/../b/./c"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/b/c\n"},
		{name: "realpath s", args: []string{"realpath", "-s", "l"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "/w/l\n"},
		{name: "realpath s through a directory link", args: []string{"realpath", "-s", "ld/x"}, files: map[string]string{"/w/d/sub/x": "x\n"}, links: map[string]string{"/w/ld": "d/sub"}, wantOut: "/w/ld/x\n"},
		{name: "realpath s missing last", args: []string{"realpath", "-s", "nope/x"}, wantOut: "/w/nope/x\n"},
		{name: "realpath s under a file", args: []string{"realpath", "-s", "f/x"}, files: map[string]string{"/w/f": "data\n"}, wantErr: "realpath: f/x: Not a directory\n", wantExit: 1},
		{name: "realpath relative to", args: []string{"realpath", "--relative-to=e", "f", "d/sub/x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "../f\n../d/sub/x\n"},
		{name: "realpath relative base", args: []string{"realpath", "--relative-base=d", "d/y", "f"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "y\n/w/f\n"},
		{name: "realpath missing mid", args: []string{"realpath", "nope/x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "realpath: nope/x: No such file or directory\n", wantExit: 1},
		{name: "realpath not dir", args: []string{"realpath", "f/x"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "realpath: f/x: Not a directory\n", wantExit: 1},
		{name: "realpath missing", args: []string{"realpath"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantErr: "realpath: missing operand\nTry 'realpath --help' for more information.\n", wantExit: 1},
		{name: "realpath quiet", args: []string{"realpath", "-q", "-e", "nope"}, files: map[string]string{"/w/d/sub/x": "x\n", "/w/d/y": "yy\n", "/w/e/": "", "/w/f": "data\n"}, links: map[string]string{"/w/l": "f", "/w/ld": "d/sub"}, wantOut: "", wantExit: 1},
	})
}

func TestReadlinkRealpathThroughTheVFS(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "loop", args: []string{"readlink", "-ve", "a"}, links: map[string]string{"/w/a": "b", "/w/b": "a"},
			wantErr: "readlink: a: Too many levels of symbolic links\n", wantExit: 1},
		{name: "hidden is missing", args: []string{"realpath", "-e", "hidden/x"}, files: map[string]string{"/w/hidden/x": ""},
			wantErr: "realpath: hidden/x: No such file or directory\n", wantExit: 1},
		{name: "absolute link across mounts", args: []string{"realpath", "l"}, files: map[string]string{"/ro/t": ""}, links: map[string]string{"/w/l": "/ro/t"},
			wantOut: "/ro/t\n"},
		{name: "relative to root", args: []string{"realpath", "--relative-to=/", "f"}, files: map[string]string{"/w/f": ""}, wantOut: "w/f\n"},
		{name: "from a subdirectory", args: []string{"readlink", "-f", "../f"}, dir: "/w/d", files: map[string]string{"/w/f": "", "/w/d/": ""}, wantOut: "/w/f\n"},
		{name: "readlink help", args: []string{"readlink", "--help"}, wantOut: readlinkHelp},
		{name: "realpath help", args: []string{"realpath", "--help"}, wantOut: realpathHelp},
	})
	runVoiceCases(t, []voiceCase{
		{utility: "realpath", arg: "secret", msg: secretReason, want: "realpath: secret: " + secretReason + "\n"},
		{utility: "readlink", arg: "x y", msg: "Invalid argument", want: "readlink: 'x y': Invalid argument\n"},
	})
}
