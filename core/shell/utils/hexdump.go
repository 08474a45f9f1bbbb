package utils

import (
	"bytes"
	"io"
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

const hexdumpHelp = `
Usage:
 hexdump [options] <file>...

Show a file's bytes in hexadecimal, decimal, octal or as characters.

Options:
 -b, --one-byte-octal      bytes in octal
 -c, --one-byte-char       bytes as characters
 -C, --canonical           hex bytes with a text column
 -d, --two-bytes-decimal   two-byte units in decimal
 -o, --two-bytes-octal     two-byte units in octal
 -x, --two-bytes-hex       two-byte units in hexadecimal
 -n, --length <length>     read only length bytes
 -s, --skip <offset>       start offset bytes in
 -v, --no-squeezing        print repeated lines instead of '*'

 -h, --help                display this help
 -V, --version             display version

<length> and <offset> take K, M, G (KiB…) or KB, MB, GB suffixes.
Custom formats (-e, -f) are not supported.
`

var hexdumpOpts = []optDef{
	{short: 'b', long: "one-byte-octal"},
	{short: 'c', long: "one-byte-char"},
	{short: 'C', long: "canonical"},
	{short: 'd', long: "two-bytes-decimal"},
	{short: 'o', long: "two-bytes-octal"},
	{short: 'x', long: "two-bytes-hex"},
	{short: 'e', long: "format", arg: needArg},
	{short: 'f', long: "format-file", arg: needArg},
	{short: 'L', long: "color", arg: maybeArg},
	{short: 'n', long: "length", arg: needArg},
	{short: 's', long: "skip", arg: needArg},
	{short: 'v', long: "no-squeezing"},
	{short: 'h', long: "help"},
	{short: 'V', long: "version"},
}

// hexdumpUtility makes the hexdump utility (see builtins).
func hexdumpUtility(string) *Utility {
	return &Utility{
		Name:        "hexdump",
		Keeps:       KeepsNothing,
		Run:         runHexdump,
		Operands:    inputOperands(hexdumpOpts, parseMode{}),
		OperandExit: 1,
		Help:        hexdumpHelp,
	}
}

// hdFormat is one of hexdump's built-in displays: units of size bytes,
// each rendered by cell into a field of width (after a one-space gap).
type hdFormat struct {
	size      int
	width     int
	cell      func(v uint64) string
	canonical bool // -C: two groups of eight, a text column
}

var hdFormats = lazy.Value[map[string]hdFormat]{New: func() map[string]hdFormat {
	return map[string]hdFormat{
		"default":           {size: 2, width: 4, cell: func(v uint64) string { return padFill(strconv.FormatUint(v, 16), 4, '0') }},
		"two-bytes-hex":     {size: 2, width: 7, cell: func(v uint64) string { return padFill(strconv.FormatUint(v, 16), 4, '0') }},
		"two-bytes-decimal": {size: 2, width: 7, cell: func(v uint64) string { return padFill(strconv.FormatUint(v, 10), 5, '0') }},
		"two-bytes-octal":   {size: 2, width: 7, cell: func(v uint64) string { return padFill(strconv.FormatUint(v, 8), 6, '0') }},
		"one-byte-octal":    {size: 1, width: 3, cell: func(v uint64) string { return padFill(strconv.FormatUint(v, 8), 3, '0') }},
		"one-byte-char":     {size: 1, width: 3, cell: func(v uint64) string { return odChar(byte(v)) }},
		"canonical":         {size: 1, width: 2, canonical: true, cell: func(v uint64) string { return padFill(strconv.FormatUint(v, 16), 2, '0') }},
	}
}}

func runHexdump(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "hexdump", defs: hexdumpOpts, usageExit: 1, help: hexdumpHelp,
		version: "hexdump from util-linux 2.38.1\n"})
	if done {
		return t.end(status)
	}
	var formats []hdFormat
	var length, skip int64 = -1, 0
	squeeze := true
	for _, o := range args.opts {
		switch o.name {
		case "format", "format-file":
			t.warn("custom formats (-" + o.name[:1] + ") are not supported; use -C, -x, -d, -o, -c or -b")
			return t.end(1)
		case "length", "skip":
			n, ok := hdSize(o.value)
			if !ok {
				t.warn("failed to parse " + o.name + ": '" + o.value + "'")
				return t.end(1)
			}
			if o.name == "length" {
				length = n
			} else {
				skip = n
			}
		case "no-squeezing":
			squeeze = false
		case "color":
		default:
			formats = append(formats, hdFormats.Get()[o.name])
		}
	}
	if len(formats) == 0 {
		formats = []hdFormat{hdFormats.Get()["default"]}
	}
	files := args.operandStrings(e.Args)
	failed := 0
	in := newDumpInput(t, files, func(name string, err error) {
		failed++
		t.warn(name + ": " + errText(err))
	})
	defer in.close()
	if skip > 0 && len(files) == 0 {
		// hexdump seeks; a pipe cannot.
		if s, ok := t.stdin().(io.Seeker); !ok || hdCannotSeek(s) {
			t.warn("stdin: Illegal seek")
			return t.end(1)
		}
	}
	offset := skip - in.skip(skip)
	in.limit = length
	hdDump(t, in, formats, offset, squeeze)
	if failed > 0 && in.opened == 0 && len(files) > 0 {
		t.warn("all input file arguments failed")
	}
	if failed > 0 {
		return t.end(1)
	}
	return t.end(0)
}

// hdCannotSeek reports a stream that cannot seek (a pipe).
func hdCannotSeek(s io.Seeker) bool {
	_, err := s.Seek(0, io.SeekCurrent)
	return err != nil
}

// hdSize parses -n and -s: decimal, 0x hex or 0 octal, with K/M/G (KiB),
// KB/MB/GB suffixes.
func hdSize(s string) (int64, bool) {
	mult := int64(1)
	for _, suf := range []struct {
		s string
		m int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(s, suf.s) {
			s, mult = strings.TrimSuffix(s, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 0, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	return n * mult, true
}

// hdDump prints 16-byte blocks in each format, '*' for repeated blocks,
// then the final offset; empty input prints nothing.
func hdDump(t *tool, in io.Reader, formats []hdFormat, offset int64, squeeze bool) {
	block := make([]byte, 16)
	prev := make([]byte, 16)
	havePrev, starred, any := false, false, false
	var line []byte
	addrWidth := 7
	if formats[len(formats)-1].canonical {
		addrWidth = 8
	}
	for !t.stopped() {
		n := readBlock(in, block)
		if n == 0 {
			break
		}
		any = true
		if squeeze && n == 16 && havePrev && bytes.Equal(block, prev) {
			if !starred {
				t.writeString("*\n")
				starred = true
			}
			offset += int64(n)
			continue
		}
		starred = false
		for _, f := range formats {
			line = hdLine(line[:0], f, offset, block[:n])
			t.write(line)
		}
		copy(prev, block)
		havePrev = n == 16
		offset += int64(n)
		if n < 16 {
			break
		}
	}
	if any || offset > 0 {
		t.writeString(padFill(strconv.FormatInt(offset, 16), addrWidth, '0') + "\n")
	}
}

// hdLine appends one block in one format; a short block is padded to
// the width of a full line.
func hdLine(buf []byte, f hdFormat, offset int64, data []byte) []byte {
	const digits = "0123456789abcdef"
	if f.canonical {
		buf = appendPadded(buf, offset, 16, 8, '0', digits)
		buf = append(buf, ' ')
		for i := 0; i < 16; i++ {
			buf = append(buf, ' ')
			if i == 8 {
				buf = append(buf, ' ')
			}
			if i < len(data) {
				buf = append(buf, digits[data[i]>>4], digits[data[i]&15])
			} else {
				buf = append(buf, ' ', ' ')
			}
		}
		buf = append(buf, "  |"...)
		for _, c := range data {
			buf = append(buf, dumpPrintable(c))
		}
		return append(buf, "|\n"...)
	}
	buf = appendPadded(buf, offset, 16, 7, '0', digits)
	units := 16 / f.size
	for u := 0; u < units; u++ {
		buf = append(buf, ' ')
		start := u * f.size
		if start >= len(data) {
			buf = appendSpaces(buf, f.width)
			continue
		}
		var v uint64
		for i := min(start+f.size, len(data)) - 1; i >= start; i-- {
			v = v<<8 | uint64(data[i])
		}
		cell := f.cell(v)
		buf = appendSpaces(buf, f.width-len(cell))
		buf = append(buf, cell...)
	}
	return append(buf, '\n')
}
