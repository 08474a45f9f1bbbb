package utils

import "testing"

// Expected outputs recorded from GNU cut (coreutils 9.1) (LC_ALL=C) run on a temp dir
// holding the same files.
func TestCutAgainstGNU(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "field one", args: []string{"cut", "-d:", "-f1", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root\nuser\nnocolon\n"},
		{name: "field list", args: []string{"cut", "-d:", "-f1,3,7", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root:0:/bin/bash\nuser:1000:/bin/sh\nnocolon\n"},
		{name: "field range", args: []string{"cut", "-d", ":", "-f", "2-4", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "x:0:0\nx:1000:1000\nnocolon\n"},
		{name: "open range", args: []string{"cut", "-d:", "-f5-", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root:/root:/bin/bash\n:/home/user:/bin/sh\nnocolon\n"},
		{name: "open start", args: []string{"cut", "-d:", "-f-2", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root:x\nuser:x\nnocolon\n"},
		{name: "only delimited", args: []string{"cut", "-s", "-d:", "-f1", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root\nuser\n"},
		{name: "tab default", args: []string{"cut", "-f2"}, stdin: "a\tb\tc\n1\t2\t3\n", wantOut: "b\n2\n"},
		{name: "output delimiter", args: []string{"cut", "-d:", "-f1,6", "--output-delimiter= | ", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root | /root\nuser | /home/user\nnocolon\n"},
		{name: "complement fields", args: []string{"cut", "-d:", "--complement", "-f2-6", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root:/bin/bash\nuser:/bin/sh\nnocolon\n"},
		{name: "bytes", args: []string{"cut", "-b1-4", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root\nuser\nnoco\n"},
		{name: "chars", args: []string{"cut", "-c", "2,4,6"}, stdin: "abcdefgh\n", wantOut: "bdf\n"},
		{name: "bytes open", args: []string{"cut", "-b", "5-"}, stdin: "abcdefgh\n", wantOut: "efgh\n"},
		{name: "bytes out delim", args: []string{"cut", "-b", "1-2,4-", "--output-delimiter=:"}, stdin: "abcdef\n", wantOut: "ab:def\n"},
		{name: "bytes adjacent ranges", args: []string{"cut", "-b", "1-2,3-4", "--output-delimiter=:"}, stdin: "abcdef\n", wantOut: "ab:cd\n"},
		{name: "bytes overlap", args: []string{"cut", "-b", "1-3,2-4", "--output-delimiter=:"}, stdin: "abcdef\n", wantOut: "abcd\n"},
		{name: "bytes complement", args: []string{"cut", "--complement", "-b", "2-3"}, stdin: "abcdef\n", wantOut: "adef\n"},
		{name: "order not kept", args: []string{"cut", "-d:", "-f3,1"}, stdin: "a:b:c\n", wantOut: "a:c\n"},
		{name: "field beyond", args: []string{"cut", "-d:", "-f9"}, stdin: "a:b\n", wantOut: "\n"},
		{name: "empty fields", args: []string{"cut", "-d:", "-f2,3"}, stdin: "a::c:\n", wantOut: ":c\n"},
		{name: "no trailing newline", args: []string{"cut", "-c1"}, stdin: "ab\ncd", wantOut: "a\nc\n"},
		{name: "zero terminated", args: []string{"cut", "-z", "-d,", "-f2"}, stdin: "a,b\x00c,d\x00", wantOut: "b\x00d\x00"},
		{name: "missing file", args: []string{"cut", "-f1", "nope", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n", wantErr: "cut: nope: No such file or directory\n", wantExit: 1},
		{name: "no list", args: []string{"cut", "passwd"}, files: map[string]string{"/w/passwd": "root:x:0:0:root:/root:/bin/bash\nuser:x:1000:1000::/home/user:/bin/sh\nnocolon\n"}, wantOut: "", wantErr: "cut: you must specify a list of bytes, characters, or fields\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "two lists", args: []string{"cut", "-b1", "-f1"}, wantOut: "", wantErr: "cut: only one list may be specified\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "long delimiter", args: []string{"cut", "-d", "ab", "-f1"}, wantOut: "", wantErr: "cut: the delimiter must be a single character\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "delim with bytes", args: []string{"cut", "-d:", "-b1"}, wantOut: "", wantErr: "cut: an input delimiter may be specified only when operating on fields\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "s with bytes", args: []string{"cut", "-s", "-b1"}, wantOut: "", wantErr: "cut: suppressing non-delimited lines makes sense\n\tonly when operating on fields\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "field zero", args: []string{"cut", "-f0"}, wantOut: "", wantErr: "cut: fields are numbered from 1\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "decreasing", args: []string{"cut", "-f", "3-1"}, wantOut: "", wantErr: "cut: invalid decreasing range\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "bare dash", args: []string{"cut", "-f", "-"}, wantOut: "", wantErr: "cut: invalid range with no endpoint: -\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "bad field", args: []string{"cut", "-f", "x"}, wantOut: "", wantErr: "cut: invalid field value 'x'\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "byte zero", args: []string{"cut", "-b", "0"}, wantOut: "", wantErr: "cut: byte/character positions are numbered from 1\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "bad position", args: []string{"cut", "-c", "1,a"}, wantOut: "", wantErr: "cut: invalid byte/character position 'a'\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "stdin dash", args: []string{"cut", "-c1-2", "-"}, stdin: "hello\n", wantOut: "he\n"},
		{name: "space delimiter", args: []string{"cut", "-d", " ", "-f2"}, stdin: "a b c\n", wantOut: "b\n"},
		{name: "long options", args: []string{"cut", "--delimiter=:", "--fields=2"}, stdin: "x:y\n", wantOut: "y\n"},
		{name: "invalid option", args: []string{"cut", "-x"}, wantOut: "", wantErr: "cut: invalid option -- 'x'\nTry 'cut --help' for more information.\n", wantExit: 1},
		{name: "directory", args: []string{"cut", "-f1", "d"}, files: map[string]string{"/w/d/": ""}, wantOut: "", wantErr: "cut: d: Is a directory\n", wantExit: 1},
	})
}

func TestCutGatehouse(t *testing.T) {
	t.Parallel()
	runCases(t, []utilCase{
		{name: "help", args: []string{"cut", "--help"}, wantOut: cutHelp},
		{name: "refused file", args: []string{"cut", "-c1", "secret", "f"}, files: map[string]string{"/w/secret": "k\n", "/w/f": "xy\n"},
			wantOut: "x\n", wantErr: "cut: secret: " + secretReason + "\n", wantExit: 1},
		{name: "hidden file", args: []string{"cut", "-c1", "hidden/a"}, files: map[string]string{"/w/hidden/a": "k\n"},
			wantErr: "cut: hidden/a: No such file or directory\n", wantExit: 1},
	})
	runVoiceCases(t, []voiceCase{
		{utility: "cut", arg: "secret", msg: secretReason, want: "cut: secret: " + secretReason + "\n"},
		{utility: "cut", arg: "my file", msg: "No such file or directory", want: "cut: 'my file': No such file or directory\n"},
	})
}
