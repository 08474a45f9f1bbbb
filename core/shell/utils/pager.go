package utils

import (
	"bufio"
	"io"
	"strings"
)

// less and more page only on a terminal; a workspace's output never is
// one, so they copy their input as they do into a pipe: less plainly
// (after its binary-file question, which nobody can answer), more with a
// header before each file.

const lessHelp = `Usage: less [options] [file ...]
Show files. Output is never a terminal here, so less copies each file to
standard output, as it does into a pipe; paging options are accepted and
change nothing. A file that looks binary is refused, as less does when
nobody can answer its question.
`

const moreHelp = `Usage: more [options] [file ...]
Show files. Output is never a terminal here, so more copies each file to
standard output with a header naming it, as it does into a pipe; paging
options are accepted and change nothing.
`

// lessUtility makes the less utility (see builtins).
func lessUtility(string) *Utility {
	return &Utility{
		Name:        "less",
		Run:         runLess,
		Operands:    pagerOperands,
		OperandExit: 0,
		Voice:       func(arg, msg string) string { return arg + ": " + msg + "\n" },
		Help:        lessHelp,
	}
}

// moreUtility makes the more utility (see builtins).
func moreUtility(string) *Utility {
	return &Utility{
		Name:        "more",
		Run:         runMore,
		Operands:    pagerOperands,
		OperandExit: 0,
		Voice:       func(arg, msg string) string { return "more: cannot open " + arg + ": " + msg + "\n" },
		Help:        moreHelp,
	}
}

// pagerFiles splits a pager's argv: options (-X, +cmd, --opt, and the
// values of the few options that take one) are skipped, the rest are
// files. Indexes are into argv.
func pagerFiles(argv []string) []int {
	takesValue := map[string]bool{"-b": true, "-h": true, "-j": true, "-k": true, "-o": true, "-O": true,
		"-p": true, "-P": true, "-t": true, "-T": true, "-x": true, "-y": true, "-z": true, "-n": true}
	var files []int
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			for j := i + 1; j < len(argv); j++ {
				files = append(files, j)
			}
			return files
		case takesValue[a]:
			i++
		case len(a) > 1 && (a[0] == '-' || a[0] == '+'):
		default:
			files = append(files, i)
		}
	}
	return files
}

func pagerOperands(argv []string) []OperandRef {
	return fileRefs(argv, pagerFiles(argv), Read)
}

// lessBinary is less's test in the C locale: more than five bytes in the
// first 256 that are neither printable ASCII nor \t \n \r \b \f.
func lessBinary(head []byte) bool {
	if len(head) > 256 {
		head = head[:256]
	}
	n := 0
	for _, c := range head {
		if (c < 0x20 && !strings.ContainsRune("\t\n\r\b\f", rune(c))) || c >= 0x7f {
			n++
		}
	}
	return n > 5
}

func runLess(e *Env) (int, error) {
	t := newTool(e, "less", lessHelp, 1)
	if len(e.Args) > 1 && (e.Args[1] == "--help" || e.Args[1] == "-?") {
		t.writeString(lessHelp)
		return t.end(0)
	}
	if len(e.Args) > 1 && (e.Args[1] == "--version" || e.Args[1] == "-V") {
		t.writeString("less 590 (GNU regular expressions)\n")
		return t.end(0)
	}
	files := pagerFiles(e.Args)
	if len(files) == 0 {
		pagerCopy(t, bufio.NewReader(t.stdin()))
		return t.end(0)
	}
	for _, i := range files {
		name := e.Args[i]
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			// less says so on its output, where its screen would be.
			t.writeString(name + ": " + errText(err) + "\n")
			continue
		}
		br := bufio.NewReader(in)
		head, _ := br.Peek(256)
		if lessBinary(head) {
			closeIn()
			t.writeString("\"" + name + "\" may be a binary file.  See it anyway? ")
			return t.end(1)
		}
		pagerCopy(t, br)
		closeIn()
	}
	return t.end(0)
}

func runMore(e *Env) (int, error) {
	t := newTool(e, "more", moreHelp, 1)
	if len(e.Args) > 1 && e.Args[1] == "--help" {
		t.writeString(moreHelp)
		return t.end(0)
	}
	if len(e.Args) > 1 && (e.Args[1] == "--version" || e.Args[1] == "-V") {
		t.writeString("more from util-linux 2.38.1\n")
		return t.end(0)
	}
	files := pagerFiles(e.Args)
	if len(files) == 0 {
		pagerCopy(t, bufio.NewReader(t.stdin()))
		return t.end(0)
	}
	for _, i := range files {
		name := e.Args[i]
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.rawStderr("more: cannot open " + name + ": " + errText(err) + "\n")
			continue
		}
		t.writeString("::::::::::::::\n" + name + "\n::::::::::::::\n")
		pagerCopy(t, bufio.NewReader(in))
		closeIn()
	}
	return t.end(0)
}

// pagerCopy copies a stream to stdout.
func pagerCopy(t *tool, in io.Reader) {
	buf := make([]byte, 32*1024)
	for !t.stopped() {
		n, err := in.Read(buf)
		t.write(buf[:n])
		if err != nil {
			return
		}
	}
}
