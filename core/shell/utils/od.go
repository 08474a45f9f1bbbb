package utils

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"gatehouse/internal/lazy"
)

const odHelp = `Usage: od [OPTION]... [FILE]...
Dump FILE (or standard input; several FILEs are read as one input) in
octal, decimal, hexadecimal, characters or floats.

  -A, --address-radix=RADIX   offsets in [d]ecimal, [o]ctal, he[x] or [n]one
      --endian={big|little}   byte order of multi-byte units
  -j, --skip-bytes=BYTES      start after BYTES bytes
  -N, --read-bytes=BYTES      dump at most BYTES bytes
  -t, --format=TYPE           one or more of a, c, d[SIZE], f[SIZE], o[SIZE],
                                u[SIZE], x[SIZE]; a trailing z adds a text column
  -v, --output-duplicates     print repeated lines instead of a '*'
  -w[BYTES], --width[=BYTES]  BYTES per line (32 without a number; default 16)
      --help        display this help and exit
      --version     output version information and exit

Short forms: -a (-t a), -b (-t o1), -c (-t c), -d (-t u2), -f (-t fF),
-i (-t dI), -l (-t dL), -o (-t o2), -s (-t d2), -x (-t x2).
SIZE is a byte count, or C, S, I, L (char, short, int, long) for integers and
F, D (float, double) for floats. BYTES may end in b (512), K, M or G and start
with 0x for hexadecimal.
`

var odOpts = []optDef{
	{short: 'A', long: "address-radix", arg: needArg},
	{long: "endian", arg: needArg},
	{short: 'j', long: "skip-bytes", arg: needArg},
	{short: 'N', long: "read-bytes", arg: needArg},
	{short: 't', long: "format", arg: needArg},
	{short: 'v', long: "output-duplicates"},
	{short: 'w', long: "width", arg: maybeArg},
	{short: 'a'}, {short: 'b'}, {short: 'c'}, {short: 'd'}, {short: 'f'},
	{short: 'i'}, {short: 'l'}, {short: 'o'}, {short: 's'}, {short: 'x'},
}

// odUtility makes the od utility (see builtins).
func odUtility(string) *Utility {
	return &Utility{
		Name:        "od",
		Keeps:       KeepsNothing,
		Run:         runOd,
		Operands:    inputOperands(odOpts, parseMode{}),
		OperandExit: 1,
		Help:        odHelp,
	}
}

// odType is one output format: a kind letter, a unit size in bytes, the
// width of one field, and the z text column.
type odType struct {
	kind  byte
	size  int
	width int
	text  bool
	pad   int // extra columns this type's line spreads over its fields
}

// odConfig is a parsed od command line.
type odConfig struct {
	radix     byte
	bigEndian bool
	skip      int64
	limit     int64 // -1: all
	types     []odType
	dups      bool
	width     int
}

// odFieldWidths are the widest field of each integer kind and size.
var odFieldWidths = lazy.Value[map[byte]map[int]int]{New: func() map[byte]map[int]int {
	return map[byte]map[int]int{
		'd': {1: 4, 2: 6, 4: 11, 8: 20},
		'u': {1: 3, 2: 5, 4: 10, 8: 20},
		'o': {1: 3, 2: 6, 4: 11, 8: 22},
		'x': {1: 2, 2: 4, 4: 8, 8: 16},
		'f': {4: 15, 8: 24},
	}
}}

// odParseType appends the formats of one -t argument.
func odParseType(spec string, types []odType) ([]odType, string) {
	for i := 0; i < len(spec); {
		c := spec[i]
		i++
		t := odType{kind: c}
		switch c {
		case 'a', 'c':
			t.size, t.width = 1, 3
		case 'd', 'u', 'o', 'x', 'f':
			size, n, msg := odTypeSize(c, spec[i:], spec)
			if msg != "" {
				return nil, msg
			}
			i += n
			t.size, t.width = size, odFieldWidths.Get()[c][size]
		default:
			return nil, "invalid character '" + string(c) + "' in type string '" + spec + "'"
		}
		if i < len(spec) && spec[i] == 'z' {
			t.text = true
			i++
		}
		types = append(types, t)
	}
	return types, ""
}

// odTypeSize reads the SIZE after a kind letter: digits or a C type name.
func odTypeSize(kind byte, rest, spec string) (size, n int, msg string) {
	names := map[byte]int{'C': 1, 'S': 2, 'I': 4, 'L': 8}
	def := 4
	if kind == 'f' {
		names, def = map[byte]int{'F': 4, 'D': 8}, 8
	}
	if rest == "" {
		return def, 0, ""
	}
	if s, ok := names[rest[0]]; ok {
		return s, 1, ""
	}
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return def, 0, ""
	}
	size, _ = strconv.Atoi(rest[:n])
	if _, ok := odFieldWidths.Get()[kind][size]; !ok {
		what := "integral"
		if kind == 'f' {
			what = "floating point"
		}
		return 0, 0, "invalid type string '" + spec + "';\nthis system doesn't provide a " + rest[:n] + "-byte " + what + " type"
	}
	return size, n, ""
}

// odBytes parses a -j or -N count: decimal, 0x hex, leading 0 octal, with
// a b (512), K, M, G (powers of 1024) or KB, MB, GB (of 1000) suffix.
func odBytes(s string) (int64, bool) {
	mult := int64(1)
	hex := strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")
	for _, suf := range []struct {
		s string
		m int64
	}{{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"K", 1024}, {"k", 1024}, {"M", 1 << 20}, {"G", 1 << 30}, {"b", 512}} {
		if strings.HasSuffix(s, suf.s) && !(hex && suf.s == "b") {
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

// odParse reads the command line; done means exit with status.
func odParse(t *tool, args *parsedArgs, argv []string) (cfg *odConfig, files []string, status int, done bool) {
	cfg = &odConfig{radix: 'o', limit: -1, width: 16}
	fail := func(msg string) (*odConfig, []string, int, bool) {
		t.warn(msg)
		return nil, nil, t.finish(1), true
	}
	short := map[string]string{"a": "a", "b": "o1", "c": "c", "d": "u2", "f": "fF", "i": "dI", "l": "dL", "o": "o2", "s": "d2", "x": "x2"}
	for _, o := range args.opts {
		var msg string
		switch o.name {
		case "address-radix":
			if len(o.value) != 1 || !strings.Contains("doxn", o.value) {
				return fail("invalid output address radix '" + o.value + "'; it must be one character from [doxn]")
			}
			cfg.radix = o.value[0]
		case "endian":
			switch o.value {
			case "big", "little":
				cfg.bigEndian = o.value == "big"
			default:
				return fail("invalid argument '" + o.value + "' for '--endian'")
			}
		case "skip-bytes", "read-bytes":
			n, ok := odBytes(o.value)
			if !ok {
				return fail("invalid " + o.name + " argument '" + o.value + "'")
			}
			if o.name == "skip-bytes" {
				cfg.skip = n
			} else {
				cfg.limit = n
			}
		case "format":
			cfg.types, msg = odParseType(o.value, cfg.types)
		case "output-duplicates":
			cfg.dups = true
		case "width":
			cfg.width = 32
			if o.hasValue {
				n, err := strconv.Atoi(o.value)
				if err != nil || n <= 0 {
					return fail("invalid -w argument '" + o.value + "'")
				}
				cfg.width = n
			}
		default:
			cfg.types, msg = odParseType(short[o.name], cfg.types)
		}
		if msg != "" {
			return fail(msg)
		}
	}
	if len(cfg.types) == 0 {
		cfg.types, _ = odParseType("o2", nil)
	}
	lcm := 1
	for _, ty := range cfg.types {
		lcm = lcm * ty.size / gcd(lcm, ty.size)
	}
	if cfg.width%lcm != 0 {
		t.warn("warning: invalid width " + strconv.Itoa(cfg.width) + "; using " + strconv.Itoa(lcm) + " instead")
		cfg.width = lcm
	}
	odSpread(cfg)
	return cfg, args.operandStrings(argv), 0, false
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// odSpread aligns the types' lines: every line of a block is as wide as
// the widest, and a narrower type spreads the difference over its fields.
func odSpread(cfg *odConfig) {
	widest := 0
	for _, ty := range cfg.types {
		widest = max(widest, (ty.width+1)*(cfg.width/ty.size))
	}
	for i := range cfg.types {
		ty := &cfg.types[i]
		ty.pad = widest - (ty.width+1)*(cfg.width/ty.size)
	}
}

func runOd(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "od", defs: odOpts, usageExit: 1, help: odHelp})
	if done {
		return t.end(status)
	}
	cfg, files, status, done := odParse(t, args, e.Args)
	if done {
		return t.end(status)
	}
	failed := false
	in := newDumpInput(t, files, func(name string, err error) {
		failed = true
		t.warn(name + ": " + errText(err))
	})
	defer in.close()
	if cfg.skip > 0 && in.skip(cfg.skip) > 0 {
		t.warn("cannot skip past end of combined input")
		return t.end(1)
	}
	in.limit = cfg.limit
	// A line's two blocks are charged before they are made: -w2000000000
	// made four gigabytes nothing counted.
	if t.env.Grow(2*int64(cfg.width)) != nil {
		return t.end(1) // the line is ending
	}
	block := make([]byte, cfg.width)
	prev := make([]byte, cfg.width)
	var line []byte
	offset, starred, havePrev := cfg.skip, false, false
	for !t.stopped() {
		n := readBlock(in, block)
		if n == 0 {
			break
		}
		if n == cfg.width && havePrev && !cfg.dups && bytes.Equal(block, prev) {
			if !starred {
				t.writeString("*\n")
				starred = true
			}
			offset += int64(n)
			continue
		}
		starred = false
		odBlock(t, cfg, offset, block[:n], &line)
		copy(prev, block)
		havePrev = n == cfg.width
		offset += int64(n)
		if n < cfg.width {
			break
		}
	}
	if cfg.radix != 'n' {
		t.writeString(odAddress(cfg.radix, offset) + "\n")
	}
	if failed {
		return t.end(1)
	}
	return t.end(0)
}

// odAddress renders an offset in the address radix.
func odAddress(radix byte, off int64) string {
	switch radix {
	case 'd':
		return padFill(strconv.FormatInt(off, 10), 7, '0')
	case 'x':
		return padFill(strconv.FormatInt(off, 16), 6, '0')
	case 'n':
		return ""
	}
	return padFill(strconv.FormatInt(off, 8), 7, '0')
}

// padFill right-aligns s in width with fill.
func padFill(s string, width int, fill byte) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat(string(fill), width-len(s)) + s
}

// odBlock prints one block: a line per type, the address on the first.
// It appends into one reused buffer; this is od's hot path.
func odBlock(t *tool, cfg *odConfig, offset int64, data []byte, line *[]byte) {
	addr := odAddress(cfg.radix, offset)
	for i, ty := range cfg.types {
		buf := (*line)[:0]
		if i == 0 {
			buf = append(buf, addr...)
		} else {
			buf = appendSpaces(buf, len(addr))
		}
		fields := cfg.width / ty.size
		used := (len(data) + ty.size - 1) / ty.size
		var unit [8]byte
		remaining := ty.pad
		for k := 0; k < fields; k++ {
			next := ty.pad * (fields - k - 1) / fields
			w := remaining - next + ty.width
			remaining = next
			if k >= used {
				if ty.text {
					buf = appendSpaces(buf, w+1)
				}
				continue
			}
			n := copy(unit[:ty.size], data[min(k*ty.size, len(data)):min((k+1)*ty.size, len(data))])
			clear(unit[n:ty.size])
			buf = append(buf, ' ')
			start := len(buf)
			buf = odAppendField(buf, ty, unit[:ty.size], cfg.bigEndian)
			if pad := w - (len(buf) - start); pad > 0 {
				buf = appendSpaces(buf, pad)
				copy(buf[start+pad:], buf[start:len(buf)-pad])
				for j := start; j < start+pad; j++ {
					buf[j] = ' '
				}
			}
		}
		if ty.text {
			buf = append(buf, "  >"...)
			for _, c := range data {
				buf = append(buf, dumpPrintable(c))
			}
			buf = append(buf, '<')
		}
		buf = append(buf, '\n')
		t.write(buf)
		*line = buf
	}
}

// appendSpaces appends n spaces.
func appendSpaces(buf []byte, n int) []byte {
	for ; n > 0; n-- {
		buf = append(buf, ' ')
	}
	return buf
}

// odCharNames are -t a's names for the control characters.
var odCharNames = [...]string{"nul", "soh", "stx", "etx", "eot", "enq", "ack", "bel", "bs", "ht", "nl", "vt", "ff", "cr", "so", "si",
	"dle", "dc1", "dc2", "dc3", "dc4", "nak", "syn", "etb", "can", "em", "sub", "esc", "fs", "gs", "rs", "us", "sp"}

// odAppendField appends one unit of a type, unpadded except for the zero
// fill of octal and hex.
func odAppendField(buf []byte, ty odType, unit []byte, big bool) []byte {
	switch ty.kind {
	case 'a':
		c := unit[0] & 0x7f
		switch {
		case int(c) < len(odCharNames):
			return append(buf, odCharNames[c]...)
		case c == 0x7f:
			return append(buf, "del"...)
		}
		return append(buf, c)
	case 'c':
		return append(buf, odCharText.Get()[unit[0]]...)
	}
	var v uint64
	if big {
		for _, b := range unit {
			v = v<<8 | uint64(b)
		}
	} else {
		for i := len(unit) - 1; i >= 0; i-- {
			v = v<<8 | uint64(unit[i])
		}
	}
	switch ty.kind {
	case 'd':
		shift := 64 - 8*uint(ty.size)
		return strconv.AppendInt(buf, int64(v<<shift)>>shift, 10)
	case 'u':
		return strconv.AppendUint(buf, v, 10)
	case 'o', 'x':
		base := 8
		if ty.kind == 'x' {
			base = 16
		}
		start := len(buf)
		buf = strconv.AppendUint(buf, v, base)
		if pad := ty.width - (len(buf) - start); pad > 0 {
			buf = appendSpaces(buf, pad)
			copy(buf[start+pad:], buf[start:len(buf)-pad])
			for j := start; j < start+pad; j++ {
				buf[j] = '0'
			}
		}
		return buf
	case 'f':
		if ty.size == 4 {
			return append(buf, odFloat(float64(math.Float32frombits(uint32(v))), 32)...)
		}
		return append(buf, odFloat(math.Float64frombits(v), 64)...)
	}
	return buf
}

// odCharText is -t c's text for every byte, made when first needed
// (not at every start).
var odCharText = lazy.Value[*[256]string]{New: func() *[256]string {
	var tab [256]string
	for i := range tab {
		tab[i] = odChar(byte(i))
	}
	return &tab
}}

// odFloat prints the shortest text that reads back as the same float,
// with C's exponent form (1e+27, 2.5e-38).
func odFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, bits)
	if i := strings.IndexByte(s, 'e'); i >= 0 && len(s)-i == 3 {
		s = s[:i+2] + "0" + s[i+2:]
	}
	return s
}

// odChar is -t c: printable ASCII as itself, C escapes, else octal.
func odChar(c byte) string {
	switch c {
	case 0:
		return `\0`
	case '\a':
		return `\a`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	case '\n':
		return `\n`
	case '\r':
		return `\r`
	case '\t':
		return `\t`
	case '\v':
		return `\v`
	}
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return padFill(strconv.FormatUint(uint64(c), 8), 3, '0')
}
