package utils

import "testing"

// Expected outputs recorded from GNU coreutils 9.1 (LC_ALL=C) run on a temp dir
// holding the same files.
func TestChecksumsAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "md5 file", args: []string{"md5sum", "f"}, files: map[string]string{"/w/f": "hello\n"}, wantOut: "b1946ac92492d2347c6235b4d2611184  f\n"},
		{name: "md5 stdin", args: []string{"md5sum"}, stdin: "x\n", wantOut: "401b30e3b8b5d629635a5c613cdb7919  -\n"},
		{name: "md5 tag", args: []string{"md5sum", "--tag", "f"}, files: map[string]string{"/w/f": "hello\n"}, wantOut: "MD5 (f) = b1946ac92492d2347c6235b4d2611184\n"},
		{name: "md5 binary", args: []string{"md5sum", "-b", "f"}, files: map[string]string{"/w/f": "hello\n"}, wantOut: "b1946ac92492d2347c6235b4d2611184 *f\n"},
		{name: "md5 missing", args: []string{"md5sum", "nope", "f"}, files: map[string]string{"/w/f": "hello\n"}, wantOut: "b1946ac92492d2347c6235b4d2611184  f\n", wantErr: "md5sum: nope: No such file or directory\n", wantExit: 1},
		{name: "md5 escaped name", args: []string{"md5sum", "we\\ird"}, files: map[string]string{"/w/we\\ird": "a"}, wantOut: "\\0cc175b9c0f1b6a831c399e269772661  we\\\\ird\n"},
		{name: "sha256 file", args: []string{"sha256sum", "f", "g"}, files: map[string]string{"/w/f": "hello\n", "/w/g": ""}, wantOut: "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  g\n"},
		{name: "sha256 check ok", args: []string{"sha256sum", "-c", "s.txt"}, files: map[string]string{"/w/f": "hello\n", "/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\n"}, wantOut: "f: OK\n"},
		{name: "sha256 check fail", args: []string{"sha256sum", "-c", "s.txt"}, files: map[string]string{"/w/f": "hellO\n", "/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\n"}, wantOut: "f: FAILED\n", wantErr: "sha256sum: WARNING: 1 computed checksum did NOT match\n", wantExit: 1},
		{name: "sha256 check missing", args: []string{"sha256sum", "-c", "s.txt"}, files: map[string]string{"/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\n"}, wantOut: "f: FAILED open or read\n", wantErr: "sha256sum: f: No such file or directory\nsha256sum: WARNING: 1 listed file could not be read\n", wantExit: 1},
		{name: "sha256 check bad lines", args: []string{"sha256sum", "-c", "s.txt"}, files: map[string]string{"/w/s.txt": "garbage\n"}, wantOut: "", wantErr: "sha256sum: s.txt: no properly formatted checksum lines found\n", wantExit: 1},
		{name: "sha256 check mixed", args: []string{"sha256sum", "-c", "--quiet", "s.txt"}, files: map[string]string{"/w/f": "hello\n", "/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\nbad line\n"}, wantOut: "", wantErr: "sha256sum: WARNING: 1 line is improperly formatted\n"},
		{name: "sha256 check status", args: []string{"sha256sum", "-c", "--status", "s.txt"}, files: map[string]string{"/w/f": "x\n", "/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\n"}, wantOut: "", wantExit: 1},
		{name: "sha256 check tag", args: []string{"sha256sum", "-c"}, files: map[string]string{"/w/f": "hello\n"}, stdin: "SHA256 (f) = 5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03\n", wantOut: "f: OK\n"},
		{name: "sha256 check ignore missing", args: []string{"sha256sum", "-c", "--ignore-missing", "s.txt"}, files: map[string]string{"/w/f": "hello\n", "/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\n5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  gone\n"}, wantOut: "f: OK\n"},
		{name: "sha256 check warn", args: []string{"sha256sum", "-c", "-w", "s.txt"}, files: map[string]string{"/w/f": "hello\n", "/w/s.txt": "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  f\nxx\n"}, wantOut: "f: OK\n", wantErr: "sha256sum: s.txt: 2: improperly formatted SHA256 checksum line\nsha256sum: WARNING: 1 line is improperly formatted\n"},
	})
}

func TestChecksumsGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "refused file", args: []string{"sha256sum", "secret"}, files: map[string]string{"/w/secret": "k"},
			wantErr: "sha256sum: secret: " + secretReason + "\n", wantExit: 1},
		{name: "refused in check list", args: []string{"md5sum", "-c", "l"},
			files:   map[string]string{"/w/secret": "k", "/w/l": "b1946ac92492d2347c6235b4d2611184  secret\n"},
			wantOut: "secret: FAILED open or read\n",
			wantErr: "md5sum: secret: " + secretReason + "\nmd5sum: WARNING: 1 listed file could not be read\n", wantExit: 1},
		{name: "md5 help", args: []string{"md5sum", "--help"}, wantOutContains: "Print or check MD5 checksums."},
		{name: "sha256 help", args: []string{"sha256sum", "--help"}, wantOutContains: "Print or check SHA256 checksums."},
	})
	runVoiceCases(t, []voiceCase{
		{utility: "md5sum", arg: "secret", msg: secretReason, want: "md5sum: secret: " + secretReason + "\n"},
		{utility: "sha256sum", arg: "a b", msg: "No such file or directory", want: "sha256sum: 'a b': No such file or directory\n"},
	})
}
