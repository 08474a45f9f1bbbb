package utils

import (
	"strconv"
	"strings"
	"testing"
)

// Expected outputs recorded from GNU split (coreutils 9.1) (LC_ALL=C) run on a temp dir
// holding the same files.
func TestSplitAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "split lines", args: []string{"split", "-l", "4", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "1\n2\n3\n4\n", "/w/xab": "5\n6\n7\n8\n", "/w/xac": "9\n10\n"}},
		{name: "split verbose prefix", args: []string{"split", "--verbose", "-l", "4", "f", "part."}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "creating file 'part.aa'\ncreating file 'part.ab'\ncreating file 'part.ac'\n", wantFiles: map[string]string{"/w/part.aa": "1\n2\n3\n4\n", "/w/part.ab": "5\n6\n7\n8\n", "/w/part.ac": "9\n10\n"}},
		{name: "split bytes", args: []string{"split", "-b", "5", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "1\n2\n3", "/w/xab": "\n4\n5\n", "/w/xac": "6\n7\n8", "/w/xad": "\n9\n10", "/w/xae": "\n"}},
		{name: "split bytes unit", args: []string{"split", "-b", "1K", "f"}, files: map[string]string{"/w/f": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "/w/xab": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "/w/xac": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}},
		{name: "split numeric", args: []string{"split", "-d", "-l", "3", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/x00": "1\n2\n3\n", "/w/x01": "4\n5\n6\n", "/w/x02": "7\n8\n9\n", "/w/x03": "10\n"}},
		{name: "split numeric from", args: []string{"split", "--numeric-suffixes=5", "-l", "3", "f", "n"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/n05": "1\n2\n3\n", "/w/n06": "4\n5\n6\n", "/w/n07": "7\n8\n9\n", "/w/n08": "10\n"}},
		{name: "split hex", args: []string{"split", "-x", "-a", "1", "-l", "1", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"}, wantOut: "", wantFiles: map[string]string{"/w/x0": "1\n", "/w/x1": "2\n", "/w/x2": "3\n", "/w/x3": "4\n", "/w/x4": "5\n", "/w/x5": "6\n", "/w/x6": "7\n", "/w/x7": "8\n", "/w/x8": "9\n", "/w/x9": "10\n", "/w/xa": "11\n", "/w/xb": "12\n"}},
		{name: "split suffix length", args: []string{"split", "-a", "3", "-l", "5", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaaa": "1\n2\n3\n4\n5\n", "/w/xaab": "6\n7\n8\n9\n10\n"}},
		{name: "split additional", args: []string{"split", "-l", "5", "--additional-suffix=.txt", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaa.txt": "1\n2\n3\n4\n5\n", "/w/xab.txt": "6\n7\n8\n9\n10\n"}},
		{name: "split chunks", args: []string{"split", "-n", "3", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "1\n2\n3\n4", "/w/xab": "\n5\n6\n7\n", "/w/xac": "8\n9\n10\n"}},
		{name: "split line chunks", args: []string{"split", "-n", "l/3", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "1\n2\n3\n4\n", "/w/xab": "5\n6\n7\n", "/w/xac": "8\n9\n10\n"}},
		{name: "split chunk to stdout", args: []string{"split", "-n", "2/3", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "\n5\n6\n7\n"},
		{name: "split line-bytes", args: []string{"split", "-C", "6", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "1\n2\n3\n", "/w/xab": "4\n5\n6\n", "/w/xac": "7\n8\n9\n", "/w/xad": "10\n"}},
		{name: "split stdin", args: []string{"split", "-l", "2", "-", "in"}, stdin: "a\nb\nc\n", wantOut: "", wantFiles: map[string]string{"/w/inaa": "a\nb\n", "/w/inab": "c\n"}},
		{name: "split zero lines", args: []string{"split", "-l", "0", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantErr: "split: invalid number of lines: '0': Numerical result out of range\n", wantExit: 1},
		{name: "split bad lines", args: []string{"split", "-l", "x", "f"}, files: map[string]string{"/w/f": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}, wantOut: "", wantErr: "split: invalid number of lines: 'x'\n", wantExit: 1},
		{name: "split missing", args: []string{"split", "nope"}, wantOut: "", wantErr: "split: cannot open 'nope' for reading: No such file or directory\n", wantExit: 1},
		{name: "split extra", args: []string{"split", "a", "b", "c"}, wantOut: "", wantErr: "split: extra operand 'c'\nTry 'split --help' for more information.\n", wantExit: 1},
		{name: "split separator", args: []string{"split", "-t", ",", "-l", "2"}, stdin: "a,b,c,d,e", wantOut: "", wantFiles: map[string]string{"/w/xaa": "a,b,", "/w/xab": "c,d,", "/w/xac": "e"}},
		{name: "split elide", args: []string{"split", "-e", "-n", "5", "f"}, files: map[string]string{"/w/f": "ab"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "a", "/w/xab": "b"}},
		{name: "split no elide", args: []string{"split", "-n", "3", "f"}, files: map[string]string{"/w/f": "ab"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "a", "/w/xab": "b", "/w/xac": ""}},
		{name: "split no trailing newline", args: []string{"split", "-l", "2", "f"}, files: map[string]string{"/w/f": "1\n2\n3"}, wantOut: "", wantFiles: map[string]string{"/w/xaa": "1\n2\n", "/w/xab": "3"}},
		{name: "split empty input", args: []string{"split", "f"}, files: map[string]string{"/w/f": ""}, wantOut: ""},
	})
}

func TestSplitGatehouse(t *testing.T) {
	t.Parallel()
	var many strings.Builder
	for i := range 652 {
		many.WriteString(strconv.Itoa(i) + "\n")
	}
	runCases(t, []utilCase{
		// Past xyz GNU widens the suffix: xzaaa, xzaab, ...
		{name: "suffix widens", args: []string{"split", "-l", "1", "f"}, files: map[string]string{"/w/f": many.String()},
			wantFiles: map[string]string{"/w/xyz": "649\n", "/w/xzaaa": "650\n", "/w/xzaab": "651\n"}},
		{name: "suffixes exhausted", args: []string{"split", "-a", "1", "-l", "1", "f"}, files: map[string]string{"/w/f": strings.Repeat("x\n", 27)},
			wantErr: "split: output file suffixes exhausted\n", wantExit: 1, wantFiles: map[string]string{"/w/xz": "x\n"}},
		{name: "read-only prefix", args: []string{"split", "f", "/ro/x"}, files: map[string]string{"/w/f": "a\n"},
			wantErr: "split: /ro/xaa: Read-only file system\n", wantExit: 1},
		{name: "refused input", args: []string{"split", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "split: cannot open 'secret' for reading: " + secretReason + "\n", wantExit: 1},
		{name: "filter refused", args: []string{"split", "--filter=gzip", "f"}, files: map[string]string{"/w/f": "a\n"},
			wantErr: "split: --filter is not supported: gatehouse runs no shell commands\n", wantExit: 1},
		{name: "help", args: []string{"split", "--help"}, wantOut: splitHelp},
	})
	runVoiceCases(t, []voiceCase{{utility: "split", arg: "secret", msg: secretReason, want: "split: cannot open 'secret' for reading: " + secretReason + "\n"}})
	refs := Lookup("split").Operands([]string{"split", "-l", "2", "in.txt", "out/p"})
	if len(refs) != 2 || refs[0] != (OperandRef{Index: 3, Kind: Read}) || refs[1] != (OperandRef{Index: 4, Kind: Write}) {
		t.Errorf("split operands = %+v", refs)
	}
}
