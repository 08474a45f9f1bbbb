package utils

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

const joinHelp = `Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.
When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM        also print unpairable lines from file FILENUM (1 or 2)
  -e STRING         replace missing (empty) input fields with STRING
  -i, --ignore-case  ignore differences in case when comparing fields
  -j FIELD          equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT         obey FORMAT while constructing output line
  -t CHAR           use CHAR as input and output field separator
  -v FILENUM        like -a FILENUM, but suppress joined output lines
  -1 FIELD          join on this FIELD of file 1
  -2 FIELD          join on this FIELD of file 2
      --check-order   check that the input is correctly sorted
      --nocheck-order  do not check that the input is correctly sorted
      --header      treat the first line in each file as field headers
  -z, --zero-terminated     line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit
`

var joinOpts = []optDef{
	{short: 'a', arg: needArg},
	{short: 'e', arg: needArg},
	{short: 'i', long: "ignore-case"},
	{short: 'j', arg: needArg},
	{short: 'o', arg: needArg},
	{short: 't', arg: needArg},
	{short: 'v', arg: needArg},
	{short: '1', arg: needArg},
	{short: '2', arg: needArg},
	{long: "check-order"},
	{long: "nocheck-order"},
	{long: "header"},
	{short: 'z', long: "zero-terminated"},
}

// joinUtility makes the join utility (see builtins).
func joinUtility(string) *Utility {
	return &Utility{Name: "join", Run: runJoin, Operands: inputOperands(joinOpts, parseMode{}), OperandExit: 1, Help: joinHelp, Keeps: KeepsLines}
}

// joinConfig is a parsed join command line.
type joinConfig struct {
	field       [2]int // 0-based join fields
	unpaired    [2]bool
	onlyUnpair  bool
	empty       string
	emptySet    bool
	sep         byte // 0: blanks
	fold        bool
	format      [][2]int // (file 0..1 or -1 for the join field, field)
	autoFormat  bool
	hasFormat   bool
	checkOrder  int // -1 never, 0 default, 1 always
	header      bool
	eol         byte
	names       [2]string
	disordered  [2]bool
	unsortedMsg bool
}

func runJoin(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "join", defs: joinOpts, usageExit: 1, help: joinHelp})
	if done {
		return t.end(status)
	}
	cfg := &joinConfig{eol: '\n'}
	if msg := cfg.apply(args.opts); msg != "" {
		return t.end(t.usage(msg))
	}
	files := args.operandStrings(e.Args)
	switch {
	case len(files) == 0:
		return t.end(t.usage("missing operand"))
	case len(files) == 1:
		return t.end(t.usage("missing operand after '" + files[0] + "'"))
	case len(files) > 2:
		return t.end(t.usage("extra operand '" + files[2] + "'"))
	}
	var readers [2]*bufio.Reader
	for i, name := range files {
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn(name + ": " + errText(err))
			return t.end(1)
		}
		defer closeIn()
		readers[i] = bufio.NewReader(in)
		cfg.names[i] = name
	}
	j := &joiner{t: t, cfg: cfg, in: readers}
	j.run()
	if cfg.unsortedMsg {
		t.warn("input is not in sorted order")
		return t.end(1)
	}
	return t.end(0)
}

// apply reads the options; it returns a usage message or "".
func (cfg *joinConfig) apply(opts []parsedOpt) string {
	field := func(v string) (int, bool) {
		n, err := strconv.Atoi(v)
		return n - 1, err == nil && n >= 1
	}
	for _, o := range opts {
		switch o.name {
		case "a", "v":
			if o.value != "1" && o.value != "2" {
				return "invalid field number: '" + o.value + "'"
			}
			cfg.unpaired[o.value[0]-'1'] = true
			if o.name == "v" {
				cfg.onlyUnpair = true
			}
		case "e":
			cfg.empty, cfg.emptySet = o.value, true
		case "ignore-case":
			cfg.fold = true
		case "j", "1", "2":
			n, ok := field(o.value)
			if !ok {
				return "invalid field number: '" + o.value + "'"
			}
			if o.name != "2" {
				cfg.field[0] = n
			}
			if o.name != "1" {
				cfg.field[1] = n
			}
		case "o":
			if msg := cfg.parseFormat(o.value); msg != "" {
				return msg
			}
		case "t":
			if len(o.value) > 1 {
				return "multi-character tab '" + o.value + "'"
			}
			cfg.sep = '\n'
			if o.value != "" {
				cfg.sep = o.value[0]
			}
		case "check-order":
			cfg.checkOrder = 1
		case "nocheck-order":
			cfg.checkOrder = -1
		case "header":
			cfg.header = true
		case "zero-terminated":
			cfg.eol = 0
		}
	}
	return ""
}

// parseFormat reads -o: "auto", or a list of 0 and FILE.FIELD.
func (cfg *joinConfig) parseFormat(v string) string {
	cfg.hasFormat = true
	if v == "auto" {
		cfg.autoFormat = true
		return ""
	}
	for _, spec := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
		if spec == "0" {
			cfg.format = append(cfg.format, [2]int{-1, 0})
			continue
		}
		f, n, ok := strings.Cut(spec, ".")
		num, err := strconv.Atoi(n)
		if !ok || (f != "1" && f != "2") || err != nil || num < 1 {
			return "invalid field specifier: '" + spec + "'"
		}
		cfg.format = append(cfg.format, [2]int{int(f[0] - '1'), num - 1})
	}
	return ""
}

// joiner merges the two sorted inputs.
type joiner struct {
	t    *tool
	cfg  *joinConfig
	in   [2]*bufio.Reader
	line [2]int // lines read, for order messages
	held int64  // what the key's groups hold, charged
	prev [2][]byte
	// autoWidth is -o auto's field count per file, from its first line.
	autoWidth [2]int
}

// readLine returns the next line of file i split into fields, or nil.
func (j *joiner) readLine(i int) [][]byte {
	raw, err := j.in[i].ReadBytes(j.cfg.eol)
	if len(raw) == 0 && err != nil {
		return nil
	}
	raw = bytes.TrimSuffix(raw, []byte{j.cfg.eol})
	j.line[i]++
	fields := j.split(raw)
	if j.cfg.autoFormat && j.autoWidth[i] == 0 {
		j.autoWidth[i] = len(fields)
	}
	return fields
}

// split cuts a line into fields: at -t's character, else at runs of
// blanks (leading blanks ignored).
func (j *joiner) split(line []byte) [][]byte {
	if j.cfg.sep == '\n' {
		return [][]byte{line}
	}
	if j.cfg.sep != 0 {
		return bytes.Split(line, []byte{j.cfg.sep})
	}
	return bytes.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' })
}

// key is a line's join field ("" when it has none).
func (j *joiner) key(i int, fields [][]byte) []byte {
	if n := j.cfg.field[i]; n < len(fields) {
		return fields[n]
	}
	return nil
}

func (j *joiner) compare(a, b []byte) int {
	if j.cfg.fold {
		return bytes.Compare(bytes.ToLower(a), bytes.ToLower(b))
	}
	return bytes.Compare(a, b)
}

// checkOrder notes a key smaller than the one before it in its file.
func (j *joiner) checkOrder(i int, fields [][]byte) {
	k := j.key(i, fields)
	if j.prev[i] != nil && j.compare(j.prev[i], k) > 0 && !j.cfg.disordered[i] && j.cfg.checkOrder >= 0 {
		j.cfg.disordered[i] = true
		j.cfg.unsortedMsg = true
		j.t.warn(j.cfg.names[i] + ":" + strconv.Itoa(j.line[i]) + ": is not sorted: " + string(bytes.Join(fields, j.outSep())))
	}
	j.prev[i] = append(j.prev[i][:0], k...)
}

func (j *joiner) outSep() []byte {
	if j.cfg.sep != 0 && j.cfg.sep != '\n' {
		return []byte{j.cfg.sep}
	}
	return []byte{' '}
}

// run merges the files as GNU join does: groups of equal keys on both
// sides give every pairing; smaller keys are unpairable.
func (j *joiner) run() {
	if j.cfg.header {
		h1, h2 := j.readLine(0), j.readLine(1)
		if h1 != nil || h2 != nil {
			j.emit(h1, h2)
		}
	}
	a, b := j.readLine(0), j.readLine(1)
	if a != nil {
		j.checkOrder(0, a)
	}
	if b != nil {
		j.checkOrder(1, b)
	}
	for a != nil && b != nil && !j.t.stopped() {
		c := j.compare(j.key(0, a), j.key(1, b))
		switch {
		case c < 0:
			j.unpaired(0, a)
			a = j.next(0)
		case c > 0:
			j.unpaired(1, b)
			b = j.next(1)
		default:
			// The lines of one key are held, and charged, as they are
			// read; their pairs stop at the line's end (a million lines of
			// one key against a thousand are a billion pairs).
			ga, gb := [][][]byte{a}, [][][]byte{b}
			key := append([]byte(nil), j.key(0, a)...)
			held := j.held
			for a = j.next(0); a != nil && j.compare(j.key(0, a), key) == 0; a = j.next(0) {
				if !j.hold(a) {
					return
				}
				ga = append(ga, a)
			}
			for b = j.next(1); b != nil && j.compare(j.key(1, b), key) == 0; b = j.next(1) {
				if !j.hold(b) {
					return
				}
				gb = append(gb, b)
			}
			if !j.cfg.onlyUnpair {
				for _, x := range ga {
					if j.t.stopped() {
						return
					}
					for _, y := range gb {
						j.emit(x, y)
					}
				}
			}
			j.t.env.Grow(held - j.held) // the groups are let go
			j.held = held
		}
	}
	for ; a != nil && !j.t.stopped(); a = j.next(0) {
		j.unpaired(0, a)
	}
	for ; b != nil && !j.t.stopped(); b = j.next(1) {
		j.unpaired(1, b)
	}
}

// next reads the following line of file i and checks its order.
// hold charges a line of a key's group to the line's memory budget;
// false when the budget is spent (the line is ending).
func (j *joiner) hold(fields [][]byte) bool {
	n := int64(24 + 24*len(fields))
	for _, f := range fields {
		n += int64(len(f))
	}
	j.held += n
	return j.t.env.Grow(n) == nil
}

func (j *joiner) next(i int) [][]byte {
	f := j.readLine(i)
	if f != nil {
		j.checkOrder(i, f)
	}
	return f
}

// unpaired prints a line without a partner when -a or -v asked for it.
func (j *joiner) unpaired(i int, fields [][]byte) {
	if !j.cfg.unpaired[i] {
		return
	}
	if i == 0 {
		j.emit(fields, nil)
	} else {
		j.emit(nil, fields)
	}
}

// emit prints one output line from a pair (either side may be missing).
func (j *joiner) emit(a, b [][]byte) {
	cfg := j.cfg
	sep := j.outSep()
	var out [][]byte
	missing := []byte(cfg.empty)
	get := func(fields [][]byte, n int) []byte {
		if fields == nil || n >= len(fields) {
			return missing
		}
		if len(fields[n]) == 0 && cfg.emptySet {
			return missing
		}
		return fields[n]
	}
	key := j.key(0, a)
	if a == nil {
		key = j.key(1, b)
	}
	switch {
	case cfg.hasFormat && !cfg.autoFormat:
		for _, f := range cfg.format {
			switch f[0] {
			case -1:
				out = append(out, key)
			case 0:
				out = append(out, get(a, f[1]))
			default:
				out = append(out, get(b, f[1]))
			}
		}
	default:
		out = append(out, key)
		for i, fields := range [2][][]byte{a, b} {
			width := len(fields)
			if cfg.autoFormat {
				width = j.autoWidth[i]
			}
			for n := 0; n < width; n++ {
				if n == cfg.field[i] {
					continue
				}
				out = append(out, get(fields, n))
			}
		}
	}
	j.t.write(bytes.Join(out, sep))
	j.t.writeByte(cfg.eol)
}
