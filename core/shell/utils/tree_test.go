package utils

import "testing"

// tree is not GNU; the expected outputs follow tree 2.x's layout: the
// root, one line per entry with its connector, and the summary line, which
// counts a root directory when anything is shown under it (tree 2.1).
func TestTree(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/p/a.txt": "a", "/w/p/d/x.go": "x", "/w/p/d/y.md": "y", "/w/p/.hid": "h", "/w/p/e/": "", "/w/p/z": ""}
	links := map[string]string{"/w/p/l": "a.txt"}
	runCases(t, []utilCase{
		{name: "default", args: []string{"tree", "p"}, files: files, links: links,
			wantOut: "p\n├── a.txt\n├── d\n│   ├── x.go\n│   └── y.md\n├── e\n├── l -> a.txt\n└── z\n\n3 directories, 5 files\n"},
		{name: "cwd", args: []string{"tree"}, dir: "/w/p/d", files: files,
			wantOut: ".\n├── x.go\n└── y.md\n\n1 directory, 2 files\n"},
		{name: "all", args: []string{"tree", "-a", "p/d", "p/e"}, files: files,
			wantOut: "p/d\n├── x.go\n└── y.md\np/e\n\n1 directory, 2 files\n"},
		{name: "hidden files with -a", args: []string{"tree", "-a", "-L", "1", "p"}, files: files,
			wantOut: "p\n├── .hid\n├── a.txt\n├── d\n├── e\n└── z\n\n3 directories, 3 files\n"},
		{name: "dirs only", args: []string{"tree", "-d", "p"}, files: files,
			wantOut: "p\n├── d\n└── e\n\n3 directories\n"},
		{name: "level", args: []string{"tree", "-L", "1", "p"}, files: files,
			wantOut: "p\n├── a.txt\n├── d\n├── e\n└── z\n\n3 directories, 2 files\n"},
		{name: "full path", args: []string{"tree", "-f", "p/d"}, files: files,
			wantOut: "p/d\n├── p/d/x.go\n└── p/d/y.md\n\n1 directory, 2 files\n"},
		{name: "noreport", args: []string{"tree", "--noreport", "p/d"}, files: files, wantOut: "p/d\n├── x.go\n└── y.md\n"},
		{name: "pattern", args: []string{"tree", "-P", "*.go", "p"}, files: files,
			wantOut: "p\n├── d\n│   └── x.go\n└── e\n\n3 directories, 1 file\n"},
		{name: "ignore", args: []string{"tree", "-I", "d|e", "p"}, files: files,
			wantOut: "p\n├── a.txt\n└── z\n\n1 directory, 2 files\n"},
		{name: "dirs first", args: []string{"tree", "--dirsfirst", "-L", "1", "p"}, files: files,
			wantOut: "p\n├── d\n├── e\n├── a.txt\n└── z\n\n3 directories, 2 files\n"},
		{name: "ascii charset", args: []string{"tree", "--charset=ascii", "p/d"}, files: files,
			wantOut: "p/d\n|-- x.go\n`-- y.md\n\n1 directory, 2 files\n"},
		{name: "C locale draws ascii", args: []string{"tree", "p/d"}, env: []string{"LC_ALL=C"}, files: files,
			wantOut: "p/d\n|-- x.go\n`-- y.md\n\n1 directory, 2 files\n"},
		{name: "missing", args: []string{"tree", "nope"}, wantOut: "nope  [error opening dir]\n\n0 directories, 0 files\n", wantExit: 2},
		{name: "refused subdirectory", args: []string{"tree", "/w"}, files: map[string]string{"/w/secret/k": "k", "/w/f": ""},
			wantOut: "/w\n├── f\n└── secret  [error opening dir]\n\n2 directories, 1 file\n"},
		{name: "hidden entry absent", args: []string{"tree", "/w"}, files: map[string]string{"/w/hidden/k": "k", "/w/f": ""},
			wantOut: "/w\n└── f\n\n1 directory, 1 file\n"},
		{name: "bad level", args: []string{"tree", "-L", "0"}, wantErr: "tree: Invalid level, must be greater than 0.\nusage: tree [-acdfghiFlpsuvDJQrtU] [-L level] [-P pattern] [-I pattern]\n\t[--filelimit #] [--noreport] [--dirsfirst] [--prune] [--du] [--charset X]\n\t[--] [directory ...]\n", wantExit: 2},
		{name: "help", args: []string{"tree", "--help"}, wantOut: treeHelp},
	})
	runVoiceCases(t, []voiceCase{{utility: "tree", arg: "nope", msg: "No such file or directory", want: "nope  [error opening dir]\n"}})
}
