package utils

import (
	"bytes"
	crand "crypto/rand"
	"encoding/binary"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
)

const shufHelp = `Usage: shuf [OPTION]... [FILE]
  or:  shuf -e [OPTION]... [ARG]...
  or:  shuf -i LO-HI [OPTION]...
Write a random permutation of the input lines to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -e, --echo                treat each ARG as an input line
  -i, --input-range=LO-HI   treat each number LO through HI as an input line
  -n, --head-count=COUNT    output at most COUNT lines
  -o, --output=FILE         write result to FILE instead of standard output
      --random-source=FILE  get random bytes from FILE
  -r, --repeat              output lines can be repeated
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var shufOpts = []optDef{
	{short: 'e', long: "echo"},
	{short: 'i', long: "input-range", arg: needArg},
	{short: 'n', long: "head-count", arg: needArg},
	{short: 'o', long: "output", arg: needArg},
	{long: "random-source", arg: needArg},
	{short: 'r', long: "repeat"},
	{short: 'z', long: "zero-terminated"},
}

// shufUtility makes shuf (see builtins). Its permutations come from the
// system's random source; --random-source seeds them from a file's
// bytes, so a run repeats, though not with GNU's permutation.
func shufUtility(string) *Utility {
	return &Utility{
		Name:        "shuf",
		Run:         runShuf,
		Keeps:       KeepsAll,
		Operands:    shufOperands,
		OperandExit: 1,
		Voice:       quotedVoice("shuf"),
		Help:        shufHelp,
	}
}

// shufOperands: the input FILE (not -e's words), -o's file and the random
// source.
func shufOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, shufOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	for _, o := range args.opts {
		switch o.name {
		case "output":
			refs = append(refs, optionOperand(o, Write))
		case "random-source":
			refs = append(refs, optionOperand(o, Read))
		}
	}
	if !args.has("echo") && !args.has("input-range") {
		for _, i := range args.operands {
			if argv[i] != "-" {
				refs = append(refs, OperandRef{Index: i, Kind: Read})
			}
		}
	}
	return refs
}

func runShuf(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "shuf", defs: shufOpts, usageExit: 1, help: shufHelp})
	if done {
		return status, nil
	}
	echo, repeat, delim := false, false, byte('\n')
	count, output, source, rng := int64(-1), "", "", ""
	for _, o := range args.opts {
		switch o.name {
		case "echo":
			echo = true
		case "input-range":
			if rng != "" {
				return t.end(t.usage("multiple -i options specified"))
			}
			rng = o.value
		case "head-count":
			n, err := strconv.ParseUint(o.value, 10, 64)
			if err != nil {
				if !strings.HasPrefix(o.value, "-") && strings.Trim(o.value, "0123456789") == "" && o.value != "" {
					n = 1<<63 - 1
				} else {
					t.warn("invalid line count: " + quoteLocale(o.value))
					return t.end(1)
				}
			}
			if count < 0 || int64(min(n, 1<<63-1)) < count {
				count = int64(min(n, 1<<63-1))
			}
		case "output":
			output = o.value
		case "random-source":
			source = o.value
		case "repeat":
			repeat = true
		case "zero-terminated":
			delim = 0
		}
	}
	if echo && rng != "" {
		return t.end(t.usage("cannot combine -e and -i options"))
	}
	operands := args.operandStrings(e.Args)
	if rng != "" && count >= 0 && len(operands) == 0 && output == "" {
		if done, status := shufSample(t, rng, count, repeat, source, delim); done {
			return t.end(status)
		}
	}
	lines, ok := shufInput(t, echo, rng, operands, delim)
	if !ok {
		return t.end(1)
	}
	r, ok := shufRandom(t, source)
	if !ok {
		return t.end(1)
	}
	var out io.Writer = t.out
	if output != "" {
		f, err := t.env.FS.OpenFile(t.abs(output), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			t.warn(quoteIfNeeded(output) + ": " + errText(err))
			return t.end(1)
		}
		defer f.Close()
		out = f
	}
	if repeat {
		if len(lines) == 0 {
			if count == 0 {
				return t.end(0)
			}
			t.warn("no lines to repeat")
			return t.end(1)
		}
		for i := int64(0); (count < 0 || i < count) && !t.stopped(); i++ {
			if _, err := out.Write(append(lines[r.IntN(len(lines))], delim)); err != nil {
				break
			}
		}
		return t.end(0)
	}
	r.Shuffle(len(lines), func(i, j int) { lines[i], lines[j] = lines[j], lines[i] })
	if count >= 0 && int64(len(lines)) > count {
		lines = lines[:count]
	}
	for _, l := range lines {
		if t.stopped() {
			break
		}
		if _, err := out.Write(append(l, delim)); err != nil {
			t.warn("write error: " + errText(err))
			return t.end(1)
		}
	}
	return t.end(0)
}

// shufInput gathers the lines: -e's words, -i's numbers, or a file's (or
// standard input's) lines.
func shufInput(t *tool, echo bool, rng string, operands []string, delim byte) ([][]byte, bool) {
	switch {
	case echo:
		lines := make([][]byte, len(operands))
		for i, w := range operands {
			lines[i] = []byte(w)
		}
		return lines, true
	case rng != "":
		if len(operands) > 0 {
			t.usage("extra operand " + quoteLocale(operands[0]))
			return nil, false
		}
		lo, hi, ok := strings.Cut(rng, "-")
		a, err1 := strconv.ParseUint(lo, 10, 64)
		b, err2 := strconv.ParseUint(hi, 10, 64)
		if !ok || err1 != nil || err2 != nil || a > b+1 || a == 0 && b == 1<<64-1 {
			t.warn("invalid input range: " + quoteLocale(rng))
			return nil, false
		}
		if b+1-a > 1<<24 {
			t.warn("memory exhausted")
			return nil, false
		}
		if t.env.Grow(int64(b+1-a)*32) != nil {
			return nil, false
		}
		var lines [][]byte
		for n := a; n+1 <= b+1 && n >= a; n++ {
			lines = append(lines, []byte(strconv.FormatUint(n, 10)))
		}
		return lines, true
	}
	if len(operands) > 1 {
		t.usage("extra operand " + quoteLocale(operands[1]))
		return nil, false
	}
	name := "-"
	if len(operands) == 1 {
		name = operands[0]
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return nil, false
	}
	data, err := readAllCtx(t, in)
	closeIn()
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return nil, false
	}
	if len(data) == 0 {
		return nil, true
	}
	data = bytes.TrimSuffix(data, []byte{delim})
	return bytes.Split(data, []byte{delim}), true
}

// shufRandom is the generator: the system's random source, or one seeded
// from --random-source's bytes.
func shufRandom(t *tool, source string) (*rand.Rand, bool) {
	var seed [32]byte
	if source == "" {
		crand.Read(seed[:])
		return rand.New(rand.NewChaCha8(seed)), true
	}
	in, closeIn, err := openOperand(t, source)
	if err != nil {
		t.warn(quoteIfNeeded(source) + ": " + errText(err))
		return nil, false
	}
	defer closeIn()
	h := fnv.New128a()
	io.Copy(h, io.LimitReader(in, 1<<20))
	sum := h.Sum(nil)
	copy(seed[:], sum)
	binary.LittleEndian.PutUint64(seed[16:], uint64(len(sum)))
	return rand.New(rand.NewChaCha8(seed)), true
}

// shufSample draws -n numbers from a range too large to hold (-i 1-1e12
// -n 5), distinct unless -r; done is false for a range small enough to
// shuffle whole.
func shufSample(t *tool, rng string, count int64, repeat bool, source string, delim byte) (bool, int) {
	lo, hi, _ := strings.Cut(rng, "-")
	a, err1 := strconv.ParseUint(lo, 10, 64)
	b, err2 := strconv.ParseUint(hi, 10, 64)
	if err1 != nil || err2 != nil || a > b || b-a < 1<<20 || b-a == 1<<64-1 {
		return false, 0
	}
	r, ok := shufRandom(t, source)
	if !ok {
		return true, 1
	}
	span := b - a + 1
	seen := map[uint64]bool{}
	for i := int64(0); i < count && !t.stopped(); i++ {
		n := a + r.Uint64N(span)
		if !repeat {
			if uint64(len(seen)) >= span {
				break
			}
			if seen[n] {
				i--
				continue
			}
			if len(seen)%1024 == 0 && t.env.Grow(1024*48) != nil {
				return true, 1
			}
			seen[n] = true
		}
		t.writeString(strconv.FormatUint(n, 10))
		t.writeByte(delim)
	}
	return true, 0
}
