package utils

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
)

const xxdUsage = `Usage:
       xxd [options] [infile [outfile]]
    or
       xxd -r [-s [-]offset] [-c cols] [-ps] [infile [outfile]]
Options:
    -a          toggle autoskip: A single '*' replaces nul-lines. Default off.
    -b          binary digit dump (incompatible with -ps,-i,-r). Default hex.
    -C          capitalize variable names in C include file style (-i).
    -c cols     format <cols> octets per line. Default 16 (-i: 12, -ps: 30).
    -E          show characters in EBCDIC. Default ASCII.
    -e          little-endian dump (incompatible with -ps,-i,-r).
    -g bytes    number of octets per group in normal output. Default 2 (-e: 4).
    -h          print this summary.
    -i          output in C include file style.
    -l len      stop after <len> octets.
    -n name     set the variable name used in C include output (-i).
    -o off      add <off> to the displayed file position.
    -ps         output in postscript plain hexdump style.
    -r          reverse operation: convert (or patch) hexdump into binary.
    -r -s off   revert with <off> added to file positions found in hexdump.
    -d          show offset in decimal instead of hex.
    -s [+][-]seek  start at <seek> bytes abs. (or +: rel.) infile offset.
    -u          use upper case hex letters.
    -v          show version: "xxd 2022-01-14 by Juergen Weigert et al.".
`

// xxdUtility makes the xxd utility (see builtins).
func xxdUtility(string) *Utility {
	return &Utility{
		Name:        "xxd",
		Keeps:       KeepsAll,
		Run:         runXxd,
		Operands:    xxdOperands,
		OperandExit: 2,
		Voice:       func(arg, msg string) string { return "xxd: " + arg + ": " + msg + "\n" },
		Help:        xxdUsage,
	}
}

// xxdConfig is a parsed xxd command line.
type xxdConfig struct {
	mode                  byte // 'h' hex, 'b' bits, 'p' plain, 'i' include, 'r' revert
	revertPlain           bool
	autoskip, littleEnd   bool
	upper, capital, dec   bool
	cols, group           int // 0: the mode's default
	groupSet              bool
	length                int64
	seek                  int64
	seekRel, seekFromEnd  bool
	offset                int64
	name                  string
	nameSet               bool
	infile, outfile       string
	infileIdx, outfileIdx int
}

// xxdWord matches an xxd option: "-c", "-cols" and every prefix of the
// long spelling that is at least the short one.
func xxdWord(arg, short, long string) bool {
	return arg == short || (len(arg) > len(short) && strings.HasPrefix(long, arg))
}

// xxdParse reads xxd's command line, which has its own rules: single-dash
// words, values attached or separate. msg is a usage problem.
func xxdParse(argv []string) (cfg *xxdConfig, msg string) {
	cfg = &xxdConfig{mode: 'h', length: -1, infileIdx: -1, outfileIdx: -1}
	var operands []int
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			for j := i + 1; j < len(argv); j++ {
				operands = append(operands, j)
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, i)
			continue
		}
		value := func(short, long string) (string, bool) {
			if strings.HasPrefix(a, short) && len(a) > len(short) && !strings.HasPrefix(long, a) {
				return a[len(short):], true
			}
			if i+1 < len(argv) {
				i++
				return argv[i], true
			}
			return "", false
		}
		switch {
		case xxdWord(a, "-a", "-autoskip"):
			cfg.autoskip = !cfg.autoskip
		case xxdWord(a, "-b", "-bits"):
			cfg.mode = 'b'
		case xxdWord(a, "-C", "-capitalize"):
			cfg.capital = true
		case xxdWord(a, "-E", "-EBCDIC"):
		case a == "-e":
			cfg.littleEnd = true
		case xxdWord(a, "-h", "-help"):
			return cfg, "help"
		case xxdWord(a, "-i", "-include"):
			cfg.mode = 'i'
		case xxdWord(a, "-p", "-postscript") || xxdWord(a, "-p", "-plain") || a == "-ps":
			if cfg.mode == 'r' {
				cfg.revertPlain = true
			} else {
				cfg.mode = 'p'
			}
		case xxdWord(a, "-r", "-revert"):
			cfg.revertPlain = cfg.revertPlain || cfg.mode == 'p'
			cfg.mode = 'r'
		case a == "-d":
			cfg.dec = true
		case xxdWord(a, "-u", "-upper"):
			cfg.upper = true
		case xxdWord(a, "-v", "-version"):
			return cfg, "version"
		case strings.HasPrefix(a, "-c"), strings.HasPrefix(a, "-g"), strings.HasPrefix(a, "-l"),
			strings.HasPrefix(a, "-o"), strings.HasPrefix(a, "-s"), strings.HasPrefix(a, "-n"):
			if m := cfg.valued(a, value); m != "" {
				return cfg, m
			}
		default:
			return cfg, "usage"
		}
	}
	if len(operands) > 2 {
		return cfg, "usage"
	}
	if len(operands) > 0 {
		cfg.infileIdx, cfg.infile = operands[0], argv[operands[0]]
	}
	if len(operands) > 1 {
		cfg.outfileIdx, cfg.outfile = operands[1], argv[operands[1]]
	}
	return cfg, ""
}

// valued sets an option that takes a value.
func (cfg *xxdConfig) valued(a string, value func(short, long string) (string, bool)) string {
	type opt struct{ short, long string }
	for _, o := range []opt{{"-c", "-cols"}, {"-g", "-groupsize"}, {"-l", "-len"}, {"-o", "-offset"}, {"-s", "-seek"}, {"-n", "-name"}} {
		if !strings.HasPrefix(a, o.short) {
			continue
		}
		v, ok := value(o.short, o.long)
		if !ok {
			return "usage"
		}
		if o.short == "-n" {
			cfg.name, cfg.nameSet = v, true
			return ""
		}
		if o.short == "-s" {
			switch {
			case strings.HasPrefix(v, "+"):
				cfg.seekRel, v = true, v[1:]
			}
			if strings.HasPrefix(v, "-") {
				cfg.seekFromEnd, v = true, v[1:]
			}
		}
		n, err := strconv.ParseInt(v, 0, 64)
		if err != nil {
			n = 0
		}
		switch o.short {
		case "-c":
			cfg.cols = int(n)
		case "-g":
			cfg.group, cfg.groupSet = int(n), true
		case "-l":
			cfg.length = n
		case "-o":
			cfg.offset = n
		case "-s":
			cfg.seek = n
		}
		return ""
	}
	return "usage"
}

// xxdOperands: the infile is read, the outfile written.
func xxdOperands(argv []string) []OperandRef {
	cfg, msg := xxdParse(argv)
	if msg != "" {
		return nil
	}
	var refs []OperandRef
	if cfg.infileIdx >= 0 && cfg.infile != "-" {
		refs = append(refs, OperandRef{Index: cfg.infileIdx, Kind: Read})
	}
	if cfg.outfileIdx >= 0 && cfg.outfile != "-" {
		refs = append(refs, OperandRef{Index: cfg.outfileIdx, Kind: Write})
	}
	return refs
}

func runXxd(e *Env) (int, error) {
	t := newTool(e, "xxd", xxdUsage, 1)
	cfg, msg := xxdParse(e.Args)
	switch msg {
	case "help":
		t.rawStderr(xxdUsage)
		return t.end(0)
	case "version":
		t.rawStderr("xxd 2022-01-14 by Juergen Weigert et al.\n")
		return t.end(0)
	case "usage":
		t.rawStderr(xxdUsage)
		return t.end(1)
	}
	in := t.stdin()
	if cfg.infile != "" && cfg.infile != "-" {
		f, err := e.FS.Open(e.Abs(cfg.infile))
		if err != nil {
			t.rawStderr("xxd: " + cfg.infile + ": " + errText(err) + "\n")
			return t.end(2)
		}
		defer f.Close()
		in = f
	}
	if cfg.outfile != "" && cfg.outfile != "-" {
		f, err := e.FS.OpenFile(e.Abs(cfg.outfile), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			t.rawStderr("xxd: " + cfg.outfile + ": " + errText(err) + "\n")
			return t.end(3)
		}
		defer f.Close()
		t = newTool(&Env{Ctx: e.Ctx, Stdout: f, Stderr: e.Stderr}, "xxd", xxdUsage, 1)
	}
	if cfg.mode == 'r' {
		return t.end(xxdRevert(t, cfg, in))
	}
	if cfg.seek > 0 && !cfg.seekFromEnd {
		io.CopyN(io.Discard, in, cfg.seek)
	} else if cfg.seekFromEnd {
		data, _ := io.ReadAll(in)
		start := max(int64(len(data))-cfg.seek, 0)
		in = bytes.NewReader(data[start:])
		cfg.seek = start
	}
	if cfg.length >= 0 {
		in = io.LimitReader(in, cfg.length)
	}
	if cfg.mode != 'p' && cfg.mode != 'i' && cfg.cols > xxdMaxCols {
		// As xxd: a dump line holds 256 octets at most (and a line of
		// 999999999 would be built whole).
		t.rawStderr("xxd: invalid number of columns (max. 256).\n")
		return t.end(1)
	}
	switch cfg.mode {
	case 'p':
		xxdPlain(t, cfg, in)
	case 'i':
		xxdInclude(t, cfg, in)
	default:
		xxdDump(t, cfg, in)
	}
	return t.end(0)
}

// xxdDump is the normal (and -b) dump: offset, grouped hex, text.
func xxdDump(t *tool, cfg *xxdConfig, in io.Reader) {
	cols, group := cfg.cols, cfg.group
	perByte := 2
	if cfg.mode == 'b' {
		perByte = 8
		if cols == 0 {
			cols = 6
		}
		if group == 0 {
			group = 1
		}
	}
	if cols <= 0 {
		cols = 16
	}
	if !cfg.groupSet && cfg.mode != 'b' {
		group = 2
		if cfg.littleEnd {
			group = 4
		}
	}
	if group <= 0 || group > cols {
		group = cols
	}
	hexDigits := "0123456789abcdef"
	if cfg.upper {
		hexDigits = "0123456789ABCDEF"
	}
	block := make([]byte, cols)
	off := cfg.seek + cfg.offset
	skipping := false
	var line []byte
	for !t.stopped() {
		n := readBlock(in, block)
		if n == 0 {
			return
		}
		if cfg.autoskip && n == cols && bytes.Count(block, []byte{0}) == cols {
			if skipping {
				off += int64(n)
				continue
			}
			skipping = true
		} else {
			skipping = false
		}
		line = line[:0]
		base := 16
		if cfg.dec {
			base = 10
		}
		line = appendPadded(line, off, base, 8, '0', hexDigits)
		line = append(line, ": "...)
		line = xxdHexArea(line, cfg, block[:n], cols, group, perByte, hexDigits)
		line = append(line, ' ')
		for _, c := range block[:n] {
			line = append(line, dumpPrintable(c))
		}
		line = append(line, '\n')
		t.write(line)
		if skipping && n == cols {
			// The first line of zeros prints; the rest become one '*'.
			t.writeString("*\n")
		}
		off += int64(n)
	}
}

// appendPadded appends v in base, zero-filled (or fill) to width.
func appendPadded(buf []byte, v int64, base, width int, fill byte, digits string) []byte {
	var tmp [24]byte
	i := len(tmp)
	u := uint64(v)
	for u >= uint64(base) {
		i--
		tmp[i] = digits[u%uint64(base)]
		u /= uint64(base)
	}
	i--
	tmp[i] = digits[u]
	for pad := width - (len(tmp) - i); pad > 0; pad-- {
		buf = append(buf, fill)
	}
	return append(buf, tmp[i:]...)
}

// xxdHexArea appends the hex (or bit) columns of one line, padded to the
// full width so the text column lines up.
func xxdHexArea(line []byte, cfg *xxdConfig, data []byte, cols, group, perByte int, digits string) []byte {
	for start := 0; start < cols; start += group {
		end := min(start+group, cols)
		for k := start; k < end; k++ {
			i := k
			if cfg.littleEnd {
				i = start + end - 1 - k
			}
			switch {
			case i >= len(data):
				line = appendSpaces(line, perByte)
			case perByte == 8:
				for bit := 7; bit >= 0; bit-- {
					line = append(line, '0'+(data[i]>>uint(bit))&1)
				}
			default:
				line = append(line, digits[data[i]>>4], digits[data[i]&15])
			}
		}
		line = append(line, ' ')
	}
	return line
}

// xxdMaxCols is the most octets a dump line holds, as xxd allows.
const xxdMaxCols = 256

// xxdPlain is -p: bare hex, 30 bytes a line. The line length is only a
// count: input is read a block at a time whatever -c says, as xxd does
// (-c 999999999 is one long line, never a gigabyte held at once).
func xxdPlain(t *tool, cfg *xxdConfig, in io.Reader) {
	cols := cfg.cols
	if cols <= 0 {
		cols = 30
	}
	digits := "0123456789abcdef"
	if cfg.upper {
		digits = "0123456789ABCDEF"
	}
	block := make([]byte, min(cols, 4096))
	onLine := 0
	for !t.stopped() {
		n := readBlock(in, block[:min(len(block), cols-onLine)])
		if n == 0 {
			break
		}
		for _, c := range block[:n] {
			t.writeByte(digits[c>>4])
			t.writeByte(digits[c&15])
		}
		if onLine += n; onLine == cols {
			t.writeByte('\n')
			onLine = 0
		}
	}
	if onLine > 0 {
		t.writeByte('\n')
	}
}

// xxdInclude is -i: a C array (named after the input file) and its length.
func xxdInclude(t *tool, cfg *xxdConfig, in io.Reader) {
	cols := cfg.cols
	if cols <= 0 {
		cols = 12
	}
	name := cfg.name
	if !cfg.nameSet && cfg.infile != "" && cfg.infile != "-" {
		var b strings.Builder
		for i, c := range []byte(cfg.infile) {
			switch {
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9' && i > 0:
				b.WriteByte(c)
			case c >= '0' && c <= '9':
				b.WriteString("__")
				b.WriteByte(c)
			default:
				b.WriteByte('_')
			}
		}
		name = b.String()
		if cfg.capital {
			name = strings.ToUpper(name)
		}
	}
	if name != "" {
		t.writeString("unsigned char " + name + "[] = {\n")
	}
	digits := "0123456789abcdef"
	prefix := "0x"
	if cfg.upper {
		digits, prefix = "0123456789ABCDEF", "0X"
	}
	br := bufio.NewReader(in)
	total := 0
	for !t.stopped() {
		c, err := br.ReadByte()
		if err != nil {
			break
		}
		switch {
		case total == 0:
			t.writeString("  ")
		case total%cols == 0:
			t.writeString(",\n  ")
		default:
			t.writeString(", ")
		}
		t.writeString(prefix + string([]byte{digits[c>>4], digits[c&15]}))
		total++
	}
	if total > 0 {
		t.writeString("\n")
	}
	if name != "" {
		suffix := "_len"
		if cfg.capital {
			suffix = "_LEN"
		}
		t.writeString("};\nunsigned int " + name + suffix + " = " + strconv.Itoa(total) + ";\n")
	}
}

// xxdRevert is -r: hex back to bytes, from a dump (offsets honoured) or
// from -p's bare hex.
func xxdRevert(t *tool, cfg *xxdConfig, in io.Reader) int {
	br := bufio.NewReader(in)
	var out []byte
	put := func(pos int64, b byte) {
		for int64(len(out)) < pos {
			out = append(out, 0)
		}
		if pos < int64(len(out)) {
			out[pos] = b
		} else {
			out = append(out, b)
		}
	}
	hexVal := func(c byte) int {
		switch {
		case c >= '0' && c <= '9':
			return int(c - '0')
		case c >= 'a' && c <= 'f':
			return int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			return int(c-'A') + 10
		}
		return -1
	}
	if cfg.revertPlain {
		pos, hi := int64(0), -1
		for {
			c, err := br.ReadByte()
			if err != nil {
				break
			}
			v := hexVal(c)
			if v < 0 {
				if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
					continue
				}
				break
			}
			if hi < 0 {
				hi = v
				continue
			}
			put(pos, byte(hi<<4|v))
			pos, hi = pos+1, -1
		}
		t.write(out)
		return 0
	}
	for {
		line, err := br.ReadString('\n')
		if addr, rest, ok := strings.Cut(line, ":"); ok {
			pos, perr := strconv.ParseInt(strings.TrimSpace(addr), 16, 64)
			if perr == nil {
				pos += cfg.seek
				hexPart, _, _ := strings.Cut(strings.TrimPrefix(rest, " "), "  ")
				hi := -1
				for i := 0; i < len(hexPart); i++ {
					v := hexVal(hexPart[i])
					if v < 0 {
						continue
					}
					if hi < 0 {
						hi = v
						continue
					}
					put(pos, byte(hi<<4|v))
					pos, hi = pos+1, -1
				}
			}
		}
		if err != nil {
			break
		}
	}
	t.write(out)
	return 0
}
