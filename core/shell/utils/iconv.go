package utils

import (
	"bufio"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"gatehouse/internal/lazy"
)

const iconvHelp = `Usage: iconv [OPTION...] [FILE...]
Convert encoding of given files from one encoding to another.

 Input/Output format specification:
  -f, --from-code=NAME       encoding of original text
  -t, --to-code=NAME         encoding for output

 Information:
  -l, --list                 list all known coded character sets

 Output control:
  -c                         omit invalid characters from output
  -o, --output=FILE          output file
  -s, --silent               suppress warnings

  -?, --help                 Give this help list
  -V, --version              Print program version

Encodings: UTF-8, ASCII, ISO-8859-1 (LATIN1), ISO-8859-15 (LATIN9),
WINDOWS-1252 (CP1252), UTF-16, UTF-16LE, UTF-16BE, UTF-32, UTF-32LE,
UTF-32BE, UCS-2 and UCS-4 (with their LE and BE forms). A target may end in
//TRANSLIT (approximate what it cannot hold) or //IGNORE (drop it).
`

var iconvOpts = []optDef{
	{short: 'f', long: "from-code", arg: needArg},
	{short: 't', long: "to-code", arg: needArg},
	{short: 'l', long: "list"},
	{short: 'c'},
	{short: 'o', long: "output", arg: needArg},
	{short: 's', long: "silent"},
	{long: "verbose"},
	{short: '?'},
	{short: 'V'},
}

// iconvUtility makes the iconv utility (see builtins).
func iconvUtility(string) *Utility {
	return &Utility{
		Name: "iconv",
		Run:  runIconv,
		Operands: func(argv []string) []OperandRef {
			args, err := parseArgs(argv, iconvOpts, parseMode{})
			if err != nil {
				return nil
			}
			refs := fileRefs(argv, args.operands, Read)
			for _, o := range args.opts {
				if o.name == "output" {
					refs = append(refs, optionOperand(o, Write))
				}
			}
			return refs
		},
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "iconv: cannot open input file `" + arg + "': " + msg + "\n" },
		Help:        iconvHelp,
	}
}

// iconvCharsets maps every accepted name to its encoding.
var iconvCharsets = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		"UTF-8": "utf8", "UTF8": "utf8", "ISO-10646/UTF-8/": "utf8", "ISO-10646/UTF8/": "utf8",
		"ASCII": "ascii", "US-ASCII": "ascii", "CSASCII": "ascii", "ANSI_X3.4-1968": "ascii",
		"ISO-8859-1": "latin1", "ISO8859-1": "latin1", "ISO_8859-1": "latin1", "LATIN1": "latin1", "L1": "latin1", "CSISOLATIN1": "latin1",
		"ISO-8859-15": "latin9", "ISO8859-15": "latin9", "ISO_8859-15": "latin9", "LATIN-9": "latin9", "LATIN9": "latin9",
		"CP1252": "cp1252", "WINDOWS-1252": "cp1252",
		"UTF-16": "utf16", "UTF-16LE": "utf16le", "UTF-16BE": "utf16be",
		"UCS-2": "utf16", "UCS-2LE": "utf16le", "UCS-2BE": "utf16be", "UCS2": "utf16",
		"UTF-32": "utf32", "UTF-32LE": "utf32le", "UTF-32BE": "utf32be",
		"UCS-4": "utf32be", "UCS-4LE": "utf32le", "UCS-4BE": "utf32be", "UCS4": "utf32be",
	}
}}

// cp1252High is Windows-1252's 0x80-0x9F (0: unassigned).
var cp1252High = [32]rune{0x20ac, 0, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0, 0x17d, 0,
	0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0, 0x17e, 0x178}

// latin9Diff are the code points ISO-8859-15 changes from Latin-1.
var latin9Diff = lazy.Value[map[byte]rune]{New: func() map[byte]rune {
	return map[byte]rune{0xa4: 0x20ac, 0xa6: 0x160, 0xa8: 0x161, 0xb4: 0x17d, 0xb8: 0x17e, 0xbc: 0x152, 0xbd: 0x153, 0xbe: 0x178}
}}

// iconvCharset resolves a name (and its //TRANSLIT, //IGNORE suffix).
func iconvCharset(name string) (enc, suffix string, ok bool) {
	base, suffix, _ := strings.Cut(strings.ToUpper(name), "//")
	if strings.HasPrefix(strings.ToUpper(name), "ISO-10646/") {
		base, suffix = strings.ToUpper(name), ""
	}
	enc, ok = iconvCharsets.Get()[base]
	return enc, suffix, ok
}

func runIconv(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "iconv", defs: iconvOpts, usageExit: 1, help: iconvHelp,
		version: "iconv (Debian GLIBC 2.36-9+deb12u4) 2.36\n"})
	if done {
		return t.end(status)
	}
	// Without -f or -t, the locale's charset: ASCII in the C locale.
	localeSet := "ASCII"
	if treeLocaleUTF8(e) {
		localeSet = "UTF-8"
	}
	from, to, out := localeSet, localeSet, ""
	omit := false
	for _, o := range args.opts {
		switch o.name {
		case "from-code":
			from = o.value
		case "to-code":
			to = o.value
		case "list":
			names := make([]string, 0, len(iconvCharsets.Get()))
			for n := range iconvCharsets.Get() {
				if !strings.Contains(n, "/") {
					n += "//"
				}
				names = append(names, n)
			}
			sort.Strings(names)
			t.writeString(strings.Join(names, "\n") + "\n")
			return t.end(0)
		case "c":
			omit = true
		case "output":
			out = o.value
		case "?":
			t.writeString(iconvHelp)
			return t.end(0)
		case "V":
			t.writeString("iconv (Debian GLIBC 2.36-9+deb12u4) 2.36\n")
			return t.end(0)
		}
	}
	src, _, ok1 := iconvCharset(from)
	dst, suffix, ok2 := iconvCharset(to)
	if !ok1 || !ok2 {
		t.warn("failed to start conversion processing")
		return t.end(1)
	}
	conv := &iconvConv{t: t, src: src, dst: dst, translit: suffix == "TRANSLIT", omit: omit || suffix == "IGNORE", accents: localeSet == "UTF-8"}
	if out != "" {
		f, err := e.FS.OpenFile(e.Abs(out), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			t.warn("cannot open output file: " + errText(err))
			return t.end(1)
		}
		defer f.Close()
		conv.t = newTool(&Env{Ctx: e.Ctx, Stdout: f, Stderr: e.Stderr}, "iconv", iconvHelp, 1)
		defer conv.t.flush()
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn("cannot open input file `" + name + "': " + errText(err))
			return t.end(1)
		}
		ok := conv.run(in)
		closeIn()
		if !ok {
			return t.end(1)
		}
	}
	if conv.dropped && suffix == "IGNORE" {
		return t.end(1)
	}
	return t.end(0)
}

// iconvConv converts one stream.
type iconvConv struct {
	t              *tool
	src, dst       string
	translit, omit bool
	accents        bool // the locale knows how to drop accents (not C)
	dropped        bool
	bomDone        bool
}

// run decodes the input rune by rune and encodes it; it reports false
// after an illegal sequence (which it has announced).
func (c *iconvConv) run(in io.Reader) bool {
	br := bufio.NewReader(in)
	pos := 0
	big := c.src == "utf16be" || c.src == "utf32be"
	switch c.src {
	case "utf16", "utf32":
		// A byte-order mark decides; without one, big-endian.
		width := 2
		if c.src == "utf32" {
			width = 4
		}
		head, _ := br.Peek(width)
		big = false // no mark: the host's order, little-endian on x86
		switch {
		case len(head) == width && head[0] == 0xff && head[1] == 0xfe && (width == 2 || head[2] == 0 && head[3] == 0):
			br.Discard(width)
			pos += width
		case len(head) == width && (width == 2 && head[0] == 0xfe && head[1] == 0xff || width == 4 && head[0] == 0 && head[1] == 0 && head[2] == 0xfe && head[3] == 0xff):
			big = true
			br.Discard(width)
			pos += width
		}
	}
	for !c.t.stopped() {
		r, size, bad := c.decode(br, big)
		if size == 0 {
			return true
		}
		if bad {
			if !c.omit {
				c.t.warn("illegal input sequence at position " + strconv.Itoa(pos))
				return false
			}
			pos += size
			c.dropped = true
			continue
		}
		if !c.encode(r) {
			if !c.omit {
				c.t.warn("illegal input sequence at position " + strconv.Itoa(pos))
				return false
			}
			c.dropped = true
		}
		pos += size
	}
	return true
}

// decode reads one character; size 0 is the end, bad an illegal
// sequence of size bytes.
func (c *iconvConv) decode(br *bufio.Reader, big bool) (r rune, size int, bad bool) {
	switch c.src {
	case "utf8":
		head, _ := br.Peek(utf8.UTFMax)
		if len(head) == 0 {
			return 0, 0, false
		}
		r, size = utf8.DecodeRune(head)
		br.Discard(size)
		return r, size, r == utf8.RuneError && size <= 1
	case "ascii", "latin1", "latin9", "cp1252":
		b, err := br.ReadByte()
		if err != nil {
			return 0, 0, false
		}
		return singleByteRune(c.src, b)
	case "utf16", "utf16le", "utf16be":
		u, ok := readUnit(br, 2, big)
		if !ok {
			return 0, 0, false
		}
		if utf16.IsSurrogate(rune(u)) {
			u2, ok := readUnit(br, 2, big)
			if !ok {
				return 0, 2, true
			}
			return utf16.DecodeRune(rune(u), rune(u2)), 4, false
		}
		return rune(u), 2, false
	}
	u, ok := readUnit(br, 4, big)
	if !ok {
		return 0, 0, false
	}
	return rune(u), 4, u > utf8.MaxRune
}

// singleByteRune decodes one byte of a one-byte charset.
func singleByteRune(enc string, b byte) (rune, int, bool) {
	switch {
	case b < 0x80:
		return rune(b), 1, false
	case enc == "ascii":
		return 0, 1, true
	case enc == "cp1252" && b < 0xa0:
		r := cp1252High[b-0x80]
		return r, 1, r == 0
	case enc == "latin9":
		if r, ok := latin9Diff.Get()[b]; ok {
			return r, 1, false
		}
	}
	return rune(b), 1, false
}

// readUnit reads a 2- or 4-byte code unit.
func readUnit(br *bufio.Reader, n int, big bool) (uint32, bool) {
	buf := make([]byte, n)
	if _, err := io.ReadFull(br, buf); err != nil {
		return 0, false
	}
	var v uint32
	for i := range buf {
		k := i
		if !big {
			k = n - 1 - i
		}
		v = v<<8 | uint32(buf[k])
	}
	return v, true
}

// encode writes one character; false when the target cannot hold it
// (after //TRANSLIT tried).
func (c *iconvConv) encode(r rune) bool {
	switch c.dst {
	case "utf8":
		c.t.writeString(string(r))
		return true
	case "utf16", "utf16le", "utf16be", "utf32", "utf32le", "utf32be":
		c.encodeWide(r)
		return true
	}
	if b, ok := singleByteOf(c.dst, r); ok {
		c.t.writeByte(b)
		return true
	}
	if c.translit {
		text, ok := iconvTranslit.Get()[r]
		if !ok || len(text) == 1 && isASCIILetter(text[0]) && !c.accents {
			text = "?"
		}
		for _, tr := range text {
			b, ok := singleByteOf(c.dst, tr)
			if !ok {
				b = '?'
			}
			c.t.writeByte(b)
		}
		return true
	}
	return false
}

// encodeWide writes UTF-16 or UTF-32 (the plain names with a
// little-endian byte-order mark, as glibc on x86 writes them).
func (c *iconvConv) encodeWide(r rune) {
	big := strings.HasSuffix(c.dst, "be")
	if (c.dst == "utf16" || c.dst == "utf32") && !c.bomDone {
		c.bomDone = true
		c.encodeUnits(0xfeff, big)
	}
	c.encodeUnits(r, big)
}

func (c *iconvConv) encodeUnits(r rune, big bool) {
	width := 2
	if strings.HasPrefix(c.dst, "utf32") {
		width = 4
	}
	units := []uint32{uint32(r)}
	if width == 2 && r > 0xffff {
		a, b := utf16.EncodeRune(r)
		units = []uint32{uint32(a), uint32(b)}
	}
	for _, u := range units {
		for i := 0; i < width; i++ {
			shift := uint(8 * i)
			if big {
				shift = uint(8 * (width - 1 - i))
			}
			c.t.writeByte(byte(u >> shift))
		}
	}
}

// singleByteOf encodes a rune in a one-byte charset.
func singleByteOf(enc string, r rune) (byte, bool) {
	switch {
	case r < 0x80:
		return byte(r), true
	case enc == "ascii":
		return 0, false
	case enc == "cp1252":
		for i, v := range cp1252High {
			if v == r && v != 0 {
				return byte(0x80 + i), true
			}
		}
	case enc == "latin9":
		for b, v := range latin9Diff.Get() {
			if v == r {
				return b, true
			}
		}
		if _, taken := latin9Diff.Get()[byte(r)]; taken {
			return 0, false
		}
	}
	if r >= 0xa0 && r <= 0xff || enc == "latin1" && r >= 0x80 && r <= 0xff {
		return byte(r), true
	}
	return 0, false
}

// iconvTranslit approximates characters a target lacks, as glibc's
// //TRANSLIT does for the common ones.
var iconvTranslit = lazy.Value[map[rune]string]{New: func() map[rune]string {
	m := map[rune]string{0x20ac: "EUR", 0x2018: "'", 0x2019: "'", 0x201c: `"`, 0x201d: `"`, 0x2013: "-", 0x2014: "-",
		0x2026: "...", 0xdf: "ss", 0xe6: "ae", 0xc6: "AE", 0x153: "oe", 0x152: "OE", 0xf8: "o", 0xd8: "O",
		0xa0: " ", 0xa9: "(C)", 0xae: "(R)", 0x2122: "(TM)", 0xab: "<<", 0xbb: ">>", 0xb7: ".", 0x2022: "o"}
	groups := map[string]string{"A": "ÀÁÂÃÄÅĀĂĄ", "a": "àáâãäåāăą", "C": "ÇĆĈĊČ", "c": "çćĉċč", "E": "ÈÉÊËĒĔĖĘĚ",
		"e": "èéêëēĕėęě", "I": "ÌÍÎÏĨĪĬĮİ", "i": "ìíîïĩīĭįı", "N": "ÑŃŅŇ", "n": "ñńņň", "O": "ÒÓÔÕÖŌŎŐ",
		"o": "òóôõöōŏő", "U": "ÙÚÛÜŨŪŬŮŰŲ", "u": "ùúûüũūŭůűų", "Y": "ÝŸ", "y": "ýÿ", "S": "ŚŜŞŠ", "s": "śŝşš",
		"Z": "ŹŻŽ", "z": "źżž", "D": "ĎĐ", "d": "ďđ", "G": "ĜĞĠĢ", "g": "ĝğġģ", "L": "ĹĻĽĿŁ", "l": "ĺļľŀł",
		"R": "ŔŖŘ", "r": "ŕŗř", "T": "ŢŤ", "t": "ţť"}
	for base, chars := range groups {
		for _, r := range chars {
			m[r] = base
		}
	}
	return m
}}
