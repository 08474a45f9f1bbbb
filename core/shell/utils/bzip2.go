package utils

import (
	"bufio"
	"compress/bzip2"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// bzip2Utility makes bzip2, bunzip2 and bzcat (see builtins).
func bzip2Utility(name string) *Utility {
	return &Utility{
		Name:        name,
		Run:         runBzip2,
		Keeps:       KeepsNothing,
		Operands:    bzip2Operands(name),
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return name + ": Can't open input file " + arg + ": " + msg + ".\n"
		},
		Help: bzip2Help,
	}
}

// bzip2Config is one bzip2 command's flags.
type bzip2Config struct {
	prog                      string
	decompress, test, stdout  bool
	keep, force, quiet, verbo bool
	level                     int
	garbage                   bool // the last stream was followed by garbage
	files                     []string
	longest                   int
	status                    int
}

// bzip2Parse reads flags anywhere among the names, as bzip2 does ("--"
// ends them); msg is a bad flag.
func bzip2Parse(prog string, argv []string) (*bzip2Config, string) {
	c := &bzip2Config{prog: prog, decompress: prog != "bzip2", stdout: prog == "bzcat", level: 9, longest: 7}
	flags := true
	for _, a := range argv[1:] {
		switch {
		case a == "--" && flags:
			flags = false
		case flags && strings.HasPrefix(a, "--"):
			if !c.long(a[2:]) {
				return nil, a
			}
		case flags && len(a) > 1 && a[0] == '-':
			for i := 1; i < len(a); i++ {
				if !c.short(a[i]) {
					return nil, a
				}
			}
		default:
			c.files = append(c.files, a)
			c.longest = max(c.longest, len(a))
		}
	}
	return c, ""
}

func (c *bzip2Config) short(f byte) bool {
	switch f {
	case 'c':
		c.stdout = true
	case 'd':
		c.decompress = true
	case 'z':
		c.decompress = false
	case 'k':
		c.keep = true
	case 'f':
		c.force = true
	case 't':
		c.test = true
	case 'q':
		c.quiet = true
	case 'v':
		c.verbo = true
	case 's':
	case 'L', 'V':
		c.level = -1 // the version text
	case 'h':
		c.level = -2 // the help
	default:
		if f < '1' || f > '9' {
			return false
		}
		c.level = int(f - '0')
	}
	return true
}

func (c *bzip2Config) long(name string) bool {
	flags := map[string]byte{"stdout": 'c', "decompress": 'd', "compress": 'z', "force": 'f', "test": 't',
		"keep": 'k', "small": 's', "quiet": 'q', "version": 'V', "license": 'L', "verbose": 'v', "help": 'h',
		"fast": '1', "best": '9'}
	if f, ok := flags[name]; ok {
		return c.short(f)
	}
	return name == "exponential" || name == "repetitive-fast" || name == "repetitive-best"
}

// bzip2Operands: files are replaced in place (written) unless the output
// goes to stdout or nothing is written.
func bzip2Operands(name string) func(argv []string) []OperandRef {
	return func(argv []string) []OperandRef {
		c, msg := bzip2Parse(name, argv)
		if msg != "" {
			return nil
		}
		kind := Write
		if c.stdout || c.test {
			kind = Read
		}
		var refs []OperandRef
		seen := 0
		flags := true
		for i := 1; i < len(argv) && seen < len(c.files); i++ {
			a := argv[i]
			if a == "--" && flags {
				flags = false
				continue
			}
			if flags && len(a) > 1 && a[0] == '-' {
				continue
			}
			seen++
			refs = append(refs, OperandRef{Index: i, Kind: kind})
		}
		return refs
	}
}

const bzip2Version = "bzip2, a block-sorting file compressor.  Version 1.0.8, 13-Jul-2019.\n   \n" +
	"   Copyright (C) 1996-2019 by Julian Seward.\n   \n" +
	"   This program is free software; you can redistribute it and/or modify\n" +
	"   it under the terms set out in the LICENSE file, which is included\n" +
	"   in the bzip2 source distribution.\n   \n" +
	"   This program is distributed in the hope that it will be useful,\n" +
	"   but WITHOUT ANY WARRANTY; without even the implied warranty of\n" +
	"   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the\n" +
	"   LICENSE file for more details.\n   \n"

func runBzip2(e *Env) (int, error) {
	prog := path.Base(e.Args[0])
	t := newTool(e, prog, bzip2Help, 1)
	c, bad := bzip2Parse(prog, e.Args)
	switch {
	case bad != "":
		t.rawStderr(prog + ": Bad flag `" + bad + "'\n" + strings.Replace(bzip2Help, "usage: bzip2", "usage: "+prog, 1))
		return t.end(1)
	case c.level == -2:
		t.rawStderr(strings.Replace(bzip2Help, "usage: bzip2", "usage: "+prog, 1))
		return t.end(0)
	case c.level == -1:
		t.rawStderr(bzip2Version)
		return t.end(0)
	}
	if c.test {
		c.decompress = true
	}
	if len(c.files) == 0 {
		c.files = []string{"-"}
	}
	for _, name := range c.files {
		if t.stopped() {
			break
		}
		if !c.decompress {
			bzip2Compress(t, c, name)
			continue
		}
		bzip2Decompress(t, c, name)
	}
	return t.end(c.status)
}

func (c *bzip2Config) fail(status int) {
	c.status = max(c.status, status)
}

// bzip2Advice is what bzip2 says after a damaged file.
const bzip2Recover = "\nYou can use the `bzip2recover' program to attempt to recover\ndata from undamaged sections of corrupted files.\n\n"

const bzip2Advice = "\nIt is possible that the compressed file(s) have become corrupted.\nYou can use the -tvv option to test integrity of such files.\n" + bzip2Recover

// bzip2Decompress decompresses (or tests) one name: "-" is standard
// input.
func bzip2Decompress(t *tool, c *bzip2Config, name string) {
	fsys := t.env.FS
	if name == "-" {
		w := io.Writer(t.out)
		if c.test {
			w = io.Discard
		}
		bzip2Inflate(t, c, t.stdin(), "(stdin)", "(stdout)", w)
		return
	}
	info, err := fsys.Stat(t.abs(name))
	if err == nil && info.IsDir() {
		t.rawStderr(c.prog + ": Input file " + name + " is a directory.\n")
		c.fail(1)
		return
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		verb := "Can't open input file "
		if c.test {
			verb = "Can't open input "
		}
		t.rawStderr(c.prog + ": " + verb + name + ": " + errText(err) + ".\n")
		c.fail(1)
		return
	}
	defer closeIn()
	if c.stdout || c.test {
		w := io.Writer(t.out)
		if c.test {
			w = io.Discard
		}
		if bzip2Inflate(t, c, in, name, "(stdout)", w) && c.test && c.verbo {
			t.rawStderr("  " + name + ": " + strings.Repeat(" ", max(0, c.longest-len(name))) + "ok\n")
		}
		return
	}
	bzip2ToFile(t, c, in, name, info)
}

// bzip2Create creates the output file out as bzip2 does: an existing one
// is kept unless -f, and either failure is reported and fails the run.
func bzip2Create(t *tool, c *bzip2Config, out string) (io.WriteCloser, bool) {
	fsys := t.env.FS
	if _, err := fsys.Lstat(t.abs(out)); err == nil && !c.force {
		t.rawStderr(c.prog + ": Output file " + out + " already exists.\n")
		c.fail(1)
		return nil, false
	}
	f, err := fsys.OpenFile(t.abs(out), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		t.rawStderr(c.prog + ": Can't create output file " + out + ": " + errText(err) + ".\n")
		c.fail(1)
		return nil, false
	}
	return f, true
}

// bzip2OutName is the name bunzip2 writes: the suffix taken off, or
// NAME.out.
func bzip2OutName(name string) (string, bool) {
	for _, s := range [][2]string{{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}} {
		if strings.HasSuffix(name, s[0]) && len(path.Base(name)) > len(s[0]) {
			return strings.TrimSuffix(name, s[0]) + s[1], true
		}
	}
	return name + ".out", false
}

// bzip2ToFile decompresses a file beside itself and removes it (unless
// -k).
func bzip2ToFile(t *tool, c *bzip2Config, in io.Reader, name string, info fs.FileInfo) {
	fsys := t.env.FS
	out, guessed := bzip2OutName(name)
	if !guessed && !c.quiet {
		t.rawStderr(c.prog + ": Can't guess original name for " + name + " -- using " + out + "\n")
	}
	f, ok := bzip2Create(t, c, out)
	if !ok {
		return
	}
	bw := bufio.NewWriter(f)
	c.garbage = false
	ok = bzip2Inflate(t, c, in, name, out, bw)
	if ok && bw.Flush() != nil {
		ok = false
	}
	f.Close()
	if !ok {
		fsys.Remove(t.abs(out))
		return
	}
	if !c.garbage {
		// bzip2 returns before copying the mode and time when it met
		// trailing garbage.
		fsys.Chmod(t.abs(out), info.Mode().Perm())
		fsys.Chtimes(t.abs(out), info.ModTime(), info.ModTime())
	}
	if c.verbo {
		t.rawStderr("  " + name + ": " + strings.Repeat(" ", max(0, c.longest-len(name))) + "done\n")
	}
	if !c.keep {
		fsys.Remove(t.abs(name))
	}
}

// bzip2Inflate decompresses every stream of in to w with bzip2's
// complaints; false means the output is to be removed.
func bzip2Inflate(t *tool, c *bzip2Config, in io.Reader, name, out string, w io.Writer) bool {
	br := bufio.NewReader(ctxReader(t, in))
	magic, _ := br.Peek(4)
	if len(magic) < 4 && strings.HasPrefix("BZh", string(magic[:min(len(magic), 3)])) {
		return bzip2Damaged(t, c, name, out, true)
	}
	if string(magic[:3]) != "BZh" || magic[3] < '1' || magic[3] > '9' {
		if c.test {
			t.rawStderr(c.prog + ": " + name + ": bad magic number (file not created by bzip2)\n" + bzip2Recover)
		} else {
			t.rawStderr(c.prog + ": " + name + " is not a bzip2 file.\n")
		}
		c.fail(2)
		return false
	}
	if t.env.Grow(4<<20) != nil { // the decoder's block tables
		c.fail(1)
		return false
	}
	defer t.env.Grow(-4 << 20)
	_, err := io.Copy(w, bzip2.NewReader(br))
	var se bzip2.StructuralError
	switch {
	case err == nil:
		return true
	case t.stopped():
		return false
	case errors.As(err, &se) && strings.Contains(string(se), "continuation file"):
		if !c.quiet {
			nl := "\n"
			if c.test {
				nl = ""
			}
			t.rawStderr(nl + c.prog + ": " + name + ": trailing garbage after EOF ignored\n")
		}
		c.garbage = true
		return true
	}
	return bzip2Damaged(t, c, name, out, errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF))
}

// bzip2Damaged reports a stream that ends early (eof) or fails its
// checks, in bzip2's words, and returns false.
func bzip2Damaged(t *tool, c *bzip2Config, name, out string, eof bool) bool {
	switch {
	case c.test && eof:
		t.rawStderr(c.prog + ": " + name + ": file ends unexpectedly\n" + bzip2Recover)
	case c.test:
		t.rawStderr(c.prog + ": " + name + ": data integrity (CRC) error in data\n" + bzip2Recover)
	case eof:
		reason := "No such file or directory"
		switch {
		case name == "(stdin)":
			reason = "Inappropriate ioctl for device"
		case out == "(stdout)":
			reason = "Success"
		}
		t.rawStderr("\n" + c.prog + ": Compressed file ends unexpectedly;\n\tperhaps it is corrupted?  *Possible* reason follows.\n" +
			c.prog + ": " + reason + "\n\tInput file = " + name + ", output file = " + out + "\n" + bzip2Advice)
	default:
		t.rawStderr("\n" + c.prog + ": Data integrity error when decompressing.\n\tInput file = " + name + ", output file = " + out + "\n" + bzip2Advice)
	}
	if !c.test && out != "(stdout)" {
		t.rawStderr(c.prog + ": Deleting output file " + out + ", if it exists.\n")
	}
	c.fail(2)
	return false
}

// bzip2Compress compresses one name: "-" to standard output, a file in
// place (NAME.bz2, mode and time kept, NAME removed unless -k) or, with
// -c, to standard output.
func bzip2Compress(t *tool, c *bzip2Config, name string) {
	if name == "-" {
		bzip2Deflate(t, c, t.stdin(), name, t.out)
		return
	}
	fsys := t.env.FS
	info, err := fsys.Stat(t.abs(name))
	if err == nil && info.IsDir() {
		t.rawStderr(c.prog + ": Input file " + name + " is a directory.\n")
		c.fail(1)
		return
	}
	for _, suffix := range []string{".bz2", ".bz", ".tbz2", ".tbz"} {
		if strings.HasSuffix(name, suffix) {
			t.rawStderr(c.prog + ": Input file " + name + " already has " + suffix + " suffix.\n")
			c.fail(1)
			return
		}
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		t.rawStderr(c.prog + ": Can't open input file " + name + ": " + errText(err) + ".\n")
		c.fail(1)
		return
	}
	defer closeIn()
	if c.stdout {
		bzip2Deflate(t, c, in, name, t.out)
		return
	}
	out := name + ".bz2"
	f, ok := bzip2Create(t, c, out)
	if !ok {
		return
	}
	ok = bzip2Deflate(t, c, in, name, f)
	if f.Close() != nil {
		ok = false
	}
	if !ok {
		fsys.Remove(t.abs(out))
		return
	}
	fsys.Chmod(t.abs(out), info.Mode().Perm())
	fsys.Chtimes(t.abs(out), info.ModTime(), info.ModTime())
	if !c.keep {
		fsys.Remove(t.abs(name))
	}
}

// bzip2Deflate compresses in to w; with -v it says how well, as bzip2
// does (the sizes are this encoder's).
func bzip2Deflate(t *tool, c *bzip2Config, in io.Reader, name string, w io.Writer) bool {
	cw := &countWriter{w: w}
	zw := newBzip2Writer(cw, c.level, t.env.Grow)
	n, err := io.Copy(zw, ctxReader(t, in))
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if !t.stopped() {
			t.rawStderr(c.prog + ": " + name + ": " + errText(err) + "\n")
		}
		c.fail(1)
		return false
	}
	if c.verbo {
		shown := name
		if name == "-" {
			shown = "(stdin)"
		}
		msg := "  " + shown + ": " + strings.Repeat(" ", max(0, c.longest-len(shown)))
		if n == 0 {
			msg += " no data compressed.\n"
		} else {
			in, out := float64(n), float64(cw.n)
			msg += fmt.Sprintf("%6.3f:1, %6.3f bits/byte, %5.2f%% saved, %d in, %d out.\n", in/out, 8*out/in, 100*(1-out/in), n, cw.n)
		}
		t.rawStderr(msg)
	}
	return true
}
