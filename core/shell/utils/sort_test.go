package utils

import "testing"

func TestSort(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/w/words":    "banana\nApple\ncherry\napple\n_under\nBanana\n",
		"/w/nums":     "10\n9\n-1\n2.5\n\nabc\n-0\n0\n",
		"/w/table":    "b 2 x\na 10 y\nc 1 z\na 2 w\n",
		"/w/csv":      "x,3\ny,1\nz,2\n",
		"/w/human":    "2K\n1M\n512\n1G\n3K\n",
		"/w/dups":     "b\na\nb\nA\na\n",
		"/w/sorted":   "a\nb\nb\nc\n",
		"/w/unsorted": "a\nc\nb\n",
		"/w/months":   "Mar x\nJan y\nfoo z\nDEC w\n",
		"/w/vers":     "file10\nfile2\nfile1\n",
	}
	runCases(t, []utilCase{
		{name: "byte order", args: []string{"sort", "words"}, files: files, wantOut: "Apple\nBanana\n_under\napple\nbanana\ncherry\n"},
		{name: "stdin", args: []string{"sort"}, stdin: "b\na\n", wantOut: "a\nb\n"},
		{name: "adds final newline", args: []string{"sort"}, stdin: "b\na", wantOut: "a\nb\n"},
		{name: "reverse", args: []string{"sort", "-r", "words"}, files: files, wantOut: "cherry\nbanana\napple\n_under\nBanana\nApple\n"},
		{name: "fold case keeps last resort order", args: []string{"sort", "-f", "words"}, files: files,
			wantOut: "Apple\napple\nBanana\nbanana\ncherry\n_under\n"},
		{name: "numeric", args: []string{"sort", "-n", "nums"}, files: files, wantOut: "-1\n\n-0\n0\nabc\n2.5\n9\n10\n"},
		{name: "numeric reverse", args: []string{"sort", "-rn"}, stdin: "1\n10\n2\n", wantOut: "10\n2\n1\n"},
		{name: "key field", args: []string{"sort", "-k2,2n", "table"}, files: files, wantOut: "c 1 z\na 2 w\nb 2 x\na 10 y\n"},
		{name: "key then second key", args: []string{"sort", "-k1,1", "-k2,2nr", "table"}, files: files, wantOut: "a 10 y\na 2 w\nb 2 x\nc 1 z\n"},
		{name: "stable", args: []string{"sort", "-s", "-k1,1", "table"}, files: files, wantOut: "a 10 y\na 2 w\nb 2 x\nc 1 z\n"},
		{name: "key to end of line", args: []string{"sort", "-k2", "table"}, files: files, wantOut: "c 1 z\na 10 y\na 2 w\nb 2 x\n"},
		{name: "separator", args: []string{"sort", "-t", ",", "-k2n", "csv"}, files: files, wantOut: "y,1\nz,2\nx,3\n"},
		{name: "key characters", args: []string{"sort", "-k1.2"}, stdin: "ab\nba\n", wantOut: "ba\nab\n"},
		{name: "human", args: []string{"sort", "-h", "human"}, files: files, wantOut: "512\n2K\n3K\n1M\n1G\n"},
		{name: "unique", args: []string{"sort", "-u", "dups"}, files: files, wantOut: "A\na\nb\n"},
		{name: "unique folded", args: []string{"sort", "-uf", "dups"}, files: files, wantOut: "a\nb\n"},
		{name: "month", args: []string{"sort", "-M", "months"}, files: files, wantOut: "foo z\nJan y\nMar x\nDEC w\n"},
		{name: "version", args: []string{"sort", "-V", "vers"}, files: files, wantOut: "file1\nfile2\nfile10\n"},
		{name: "general numeric", args: []string{"sort", "-g"}, stdin: "1e3\n5\nx\n-2.5\n", wantOut: "x\n-2.5\n5\n1e3\n"},
		{name: "check sorted", args: []string{"sort", "-c", "sorted"}, files: files},
		{name: "check disorder", args: []string{"sort", "-c", "unsorted"}, files: files, wantErr: "sort: unsorted:3: disorder: b\n", wantExit: 1},
		{name: "check quiet", args: []string{"sort", "-C", "unsorted"}, files: files, wantExit: 1},
		{name: "check unique", args: []string{"sort", "-cu", "sorted"}, files: files, wantErr: "sort: sorted:3: disorder: b\n", wantExit: 1},
		{name: "output file may be an input", args: []string{"sort", "-o", "unsorted", "unsorted"}, files: files,
			wantFiles: map[string]string{"/w/unsorted": "a\nb\nc\n"}},
		{name: "several files", args: []string{"sort", "unsorted", "sorted"}, files: files, wantOut: "a\na\nb\nb\nb\nc\nc\n"},
		{name: "merge interleaves without sorting", args: []string{"sort", "-m", "unsorted", "sorted"}, files: files,
			wantOut: "a\na\nb\nb\nc\nb\nc\n"},
		{name: "zero terminated", args: []string{"sort", "-z"}, stdin: "b\x00a\x00", wantOut: "a\x00b\x00"},
		{name: "missing file", args: []string{"sort", "nope"}, wantErr: "sort: cannot read: nope: No such file or directory\n", wantExit: 2},
		{name: "refused file", args: []string{"sort", "/w/secret"}, files: map[string]string{"/w/secret": "x"},
			wantErr: "sort: cannot read: /w/secret: " + secretReason + "\n", wantExit: 2},
		{name: "zero field", args: []string{"sort", "-k0"}, wantErr: "sort: field number is zero: invalid field specification '0'\n", wantExit: 2},
		{name: "bad key", args: []string{"sort", "-k", "x"}, wantErr: "sort: invalid number at field start: invalid count at start of 'x'\n", wantExit: 2},
		{name: "multi-character tab", args: []string{"sort", "-t", "ab"}, wantErr: "sort: multi-character tab 'ab'\n", wantExit: 2},
		{name: "incompatible", args: []string{"sort", "-gn"}, wantErr: "sort: options '-gn' are incompatible\n", wantExit: 2},
		{name: "invalid option", args: []string{"sort", "-y"}, wantErr: "sort: invalid option -- 'y'\nTry 'sort --help' for more information.\n", wantExit: 2},
		{name: "leading blanks count without -b", args: []string{"sort", "-k2,2"}, stdin: "x  b\nx a\n", wantOut: "x  b\nx a\n"},
		{name: "leading blanks skipped with -b", args: []string{"sort", "-b", "-k2,2"}, stdin: "x  b\nx a\n", wantOut: "x a\nx  b\n"},
	})
}

func TestUniq(t *testing.T) {
	t.Parallel()
	files := map[string]string{"/w/in": "a\na\nb\nA\na\nc\nc\n"}
	runCases(t, []utilCase{
		{name: "merge adjacent", args: []string{"uniq", "in"}, files: files, wantOut: "a\nb\nA\na\nc\n"},
		{name: "count", args: []string{"uniq", "-c", "in"}, files: files, wantOut: "      2 a\n      1 b\n      1 A\n      1 a\n      2 c\n"},
		{name: "repeated", args: []string{"uniq", "-d", "in"}, files: files, wantOut: "a\nc\n"},
		{name: "all repeated", args: []string{"uniq", "-D", "in"}, files: files, wantOut: "a\na\nc\nc\n"},
		{name: "all repeated separated", args: []string{"uniq", "--all-repeated=separate", "in"}, files: files, wantOut: "a\na\n\nc\nc\n"},
		{name: "unique", args: []string{"uniq", "-u", "in"}, files: files, wantOut: "b\nA\na\n"},
		{name: "ignore case", args: []string{"uniq", "-i", "in"}, files: files, wantOut: "a\nb\nA\nc\n"},
		{name: "skip fields", args: []string{"uniq", "-f1"}, stdin: "1 x\n2 x\n3 y\n", wantOut: "1 x\n3 y\n"},
		{name: "skip chars", args: []string{"uniq", "-s2"}, stdin: "aax\nbbx\nccy\n", wantOut: "aax\nccy\n"},
		{name: "check chars", args: []string{"uniq", "-w1"}, stdin: "ax\nay\nbz\n", wantOut: "ax\nbz\n"},
		{name: "group", args: []string{"uniq", "--group"}, stdin: "a\na\nb\n", wantOut: "a\na\n\nb\n"},
		{name: "stdin without final newline", args: []string{"uniq"}, stdin: "a\na", wantOut: "a\n"},
		{name: "output file", args: []string{"uniq", "in", "out"}, files: files,
			wantFiles: map[string]string{"/w/out": "a\nb\nA\na\nc\n"}},
		{name: "missing input", args: []string{"uniq", "nope"}, wantErr: "uniq: nope: No such file or directory\n", wantExit: 1},
		{name: "count with all repeated", args: []string{"uniq", "-cD"},
			wantErr: "uniq: printing all duplicated lines and repeat counts is meaningless\nTry 'uniq --help' for more information.\n", wantExit: 1},
		{name: "extra operand", args: []string{"uniq", "a", "b", "c"},
			wantErr: "uniq: extra operand 'c'\nTry 'uniq --help' for more information.\n", wantExit: 1},
	})
}
