package utils

import "testing"

// Expected outputs recorded from GNU tac (coreutils 9.1) and util-linux 2.38 rev (LC_ALL=C) run on a temp dir
// holding the same files.
func TestTacRevAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "tac", args: []string{"tac", "f"}, files: map[string]string{"/w/f": "one\ntwo\nthree\n"}, wantOut: "three\ntwo\none\n"},
		{name: "tac no newline", args: []string{"tac"}, stdin: "a\nb", wantOut: "ba\n"},
		{name: "tac separator", args: []string{"tac", "-s", ","}, stdin: "a,b,c,", wantOut: "c,b,a,"},
		{name: "tac before", args: []string{"tac", "-b", "-s", ","}, stdin: ",a,b,c", wantOut: ",c,b,a"},
		{name: "tac two files", args: []string{"tac", "f", "g"}, files: map[string]string{"/w/f": "1\n2\n", "/w/g": "3\n4\n"}, wantOut: "2\n1\n4\n3\n"},
		{name: "tac missing", args: []string{"tac", "nope"}, wantOut: "", wantErr: "tac: failed to open 'nope' for reading: No such file or directory\n", wantExit: 1},
		{name: "tac regex", args: []string{"tac", "-r", "-s", "[0-9]"}, stdin: "a1b2c3", wantOut: "c3b2a1"},
		{name: "rev", args: []string{"rev", "f"}, files: map[string]string{"/w/f": "abc\nhello world\n"}, wantOut: "cba\ndlrow olleh\n"},
		{name: "rev stdin no newline", args: []string{"rev"}, stdin: "xyz", wantOut: "zyx"},
		{name: "rev missing", args: []string{"rev", "nope", "f"}, files: map[string]string{"/w/f": "ab\n"}, wantOut: "ba\n", wantErr: "rev: cannot open nope: No such file or directory\n", wantExit: 1},
		{name: "rev empty lines", args: []string{"rev"}, stdin: "\n\nab\n", wantOut: "\n\nba\n"},
	})
}

func TestTacRevGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		// A workspace speaks UTF-8: rev keeps characters whole (GNU's
		// rev in the C locale refuses such input).
		{name: "rev keeps UTF-8 characters", args: []string{"rev"}, stdin: "h\u00e9llo\n", wantOut: "oll\u00e9h\n"},
		{name: "tac refused", args: []string{"tac", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "tac: failed to open 'secret' for reading: " + secretReason + "\n", wantExit: 1},
		{name: "rev refused", args: []string{"rev", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "rev: cannot open secret: " + secretReason + "\n", wantExit: 1},
		{name: "tac help", args: []string{"tac", "--help"}, wantOut: tacHelp},
		{name: "rev help", args: []string{"rev", "--help"}, wantOut: revHelp},
	})
	runVoiceCases(t, []voiceCase{
		{utility: "tac", arg: "secret", msg: secretReason, want: "tac: failed to open 'secret' for reading: " + secretReason + "\n"},
		{utility: "rev", arg: "secret", msg: secretReason, want: "rev: cannot open secret: " + secretReason + "\n"},
	})
}
