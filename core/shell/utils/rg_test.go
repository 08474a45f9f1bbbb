package utils

import (
	"reflect"
	"testing"
)

// rg's gate behaviour: what bash cannot show (hidden and denied paths,
// operand declarations, the implicit search of the cwd).
func TestRgGatehouse(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"/w/.git/HEAD":    "ref: refs/heads/main\n",
		"/w/.gitignore":   "*.log\n",
		"/w/a.txt":        "token here\n",
		"/w/hidden/x.txt": "token hidden\n",
		"/w/secret.txt":   "token secret\n",
		"/w/app.log":      "token log\n",
		"/w/sub/b.txt":    "token sub\n",
	}
	runCases(t, []utilCase{
		{name: "walk skips hidden, reports denied", args: []string{"rg", "token"}, files: files, noStdin: true,
			wantOut: "a.txt:token here\nsub/b.txt:token sub\n", wantErr: "secret.txt: " + secretReason + "\n", wantExit: 2},
		{name: "files lists denied but not hidden", args: []string{"rg", "--files"}, files: files, noStdin: true,
			wantOut: "a.txt\nsecret.txt\nsub/b.txt\n"},
		{name: "explicit hidden is missing", args: []string{"rg", "token", "hidden/x.txt"}, files: files,
			wantErr: "hidden/x.txt: No such file or directory (os error 2)\n", wantExit: 2},
		{name: "explicit hidden dir is missing", args: []string{"rg", "token", "hidden"}, files: files,
			wantErr: "hidden: No such file or directory (os error 2)\n", wantExit: 2},
		{name: "explicit denied", args: []string{"rg", "token", "secret.txt", "a.txt"}, files: files,
			wantOut: "a.txt:token here\n", wantErr: "secret.txt: " + secretReason + "\n", wantExit: 2},
		{name: "denied pattern file", args: []string{"rg", "-f", "secret.txt", "a.txt"}, files: files,
			wantErr: "secret.txt: " + secretReason + "\n", wantExit: 2},
		{name: "stdin when fed", args: []string{"rg", "b"}, stdin: "a\nb\n", wantOut: "b\n"},
		{name: "cwd when not fed", args: []string{"rg", "-l", "here"}, files: files, noStdin: true,
			wantOut: "a.txt\n", wantErr: "secret.txt: " + secretReason + "\n", wantExit: 2},
		{name: "quiet ignores a later error", args: []string{"rg", "-q", "here", "a.txt", "secret.txt"}, files: files},
	})
}

func TestRgOperands(t *testing.T) {
	t.Parallel()
	cases := []struct {
		argv []string
		want []int
	}{
		{[]string{"rg", "pat"}, nil},
		{[]string{"rg", "pat", "a", "b"}, []int{2, 3}},
		{[]string{"rg", "-e", "pat", "a"}, []int{3}},
		{[]string{"rg", "-n", "pat", "-", "a"}, []int{4}},
		{[]string{"rg", "--files", "src"}, []int{2}},
		{[]string{"rg", "-f", "pats", "a"}, []int{2, 3}},
		{[]string{"rg", "--ignore-file", "ign", "pat", "a"}, []int{2, 4}},
	}
	for _, c := range cases {
		var got []int
		for _, ref := range rgOperands(c.argv) {
			got = append(got, ref.Index)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: operand indexes %v, want %v", c.argv, got, c.want)
		}
	}
}
