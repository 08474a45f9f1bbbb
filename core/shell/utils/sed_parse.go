package utils

import (
	"strconv"
	"strings"
)

// A sed script is compiled into a flat list of commands: a block's '{'
// knows the index of its '}', and jumps know their target index.

// sedChunk is one -e expression or -f file of the script.
type sedChunk struct {
	text     string
	exprNo   int    // -e expression number (0 for a file)
	fileName string // -f file name
}

type sedAddrKind int

const (
	sedAddrLine  sedAddrKind = iota // N
	sedAddrLast                     // $
	sedAddrRegex                    // /re/
	sedAddrStep                     // first~step
	sedAddrPlus                     // addr1,+N
	sedAddrMult                     // addr1,~N
)

type sedAddr struct {
	kind sedAddrKind
	n    int // line, first, N
	step int
	re   *sedRegex
}

// sedRegex is a compiled pattern; re is nil for the empty regex, which
// reuses the last one applied.
type sedRegex struct {
	re regexEngine
}

// sedReplPart is one piece of an s command's replacement.
type sedReplPart struct {
	literal string
	group   int  // -1 for a literal, 0 for &, 1..9 for \N
	caseOp  byte // 'L' 'U' 'l' 'u' 'E' for case conversion, else 0
}

type sedSubst struct {
	re       *sedRegex
	repl     []sedReplPart
	global   bool
	nth      int
	print    int // number of p flags
	wfile    string
	maxGroup int
}

type sedCmd struct {
	a1, a2   *sedAddr
	negate   bool
	name     byte
	text     string // a i c text, label, file name
	jump     int    // b t T target, '{' matching '}'
	intArg   int    // q Q exit code, l width (-1: default)
	sub      *sedSubst
	ymap     *[256]byte
	inRange  bool
	rangeEnd int // last line of a numeric range once started
}

// sedParseError is a script mistake with its position already rendered.
type sedParseError struct {
	msg    string
	status int // exit status when not 1 (GNU exits 4 for a missing label)
}

func (e *sedParseError) Error() string { return e.msg }

// sedParser reads the joined script, remembering which chunk each byte
// came from so errors say "-e expression #N, char M" as GNU does.
type sedParser struct {
	cfg    *sedConfig
	src    string
	pos    int
	starts []int // chunk start offsets in src
	prog   []*sedCmd
	blocks []int
}

func sedCompile(t *tool, cfg *sedConfig) ([]*sedCmd, error) {
	p := &sedParser{cfg: cfg}
	var b strings.Builder
	for i, c := range cfg.chunks {
		if i > 0 {
			b.WriteByte('\n')
		}
		p.starts = append(p.starts, b.Len())
		b.WriteString(c.text)
	}
	p.src = b.String()
	if err := p.parse(); err != nil {
		return nil, err
	}
	if err := p.resolveLabels(); err != nil {
		return nil, err
	}
	return p.prog, nil
}

// fail builds an error at the current position.
func (p *sedParser) fail(msg string) error {
	k := 0
	for i, s := range p.starts {
		if s <= max(p.pos-1, 0) {
			k = i
		}
	}
	chunk := p.cfg.chunks[k]
	offset := p.pos - p.starts[k]
	offset = min(offset, len(chunk.text))
	if chunk.fileName != "" {
		line := 1 + strings.Count(chunk.text[:max(offset-1, 0)], "\n")
		return &sedParseError{msg: "file " + chunk.fileName + " line " + strconv.Itoa(line) + ": " + msg}
	}
	return &sedParseError{msg: "-e expression #" + strconv.Itoa(chunk.exprNo) + ", char " + strconv.Itoa(offset) + ": " + msg}
}

func (p *sedParser) eof() bool { return p.pos >= len(p.src) }

func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.src[p.pos]
}

func (p *sedParser) next() byte {
	c := p.peek()
	if !p.eof() {
		p.pos++
	}
	return c
}

func (p *sedParser) skipSpace() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.pos++
	}
}

func (p *sedParser) parse() error {
	for {
		for !p.eof() && strings.IndexByte(" \t\n;", p.peek()) >= 0 {
			p.pos++
		}
		if p.eof() {
			break
		}
		if p.peek() == '#' {
			for !p.eof() && p.peek() != '\n' {
				p.pos++
			}
			continue
		}
		if err := p.command(); err != nil {
			return err
		}
	}
	if len(p.blocks) > 0 {
		// GNU reports an unclosed block at char 0.
		p.pos = 0
		return &sedParseError{msg: "-e expression #1, char 0: unmatched `{'"}
	}
	return nil
}

func (p *sedParser) command() error {
	cmd := &sedCmd{intArg: -1}
	var err error
	if cmd.a1, err = p.address(); err != nil {
		return err
	}
	if cmd.a1 != nil {
		p.skipSpace()
		if p.peek() == ',' {
			p.pos++
			p.skipSpace()
			if cmd.a2, err = p.secondAddress(); err != nil {
				return err
			}
			if cmd.a2 == nil {
				return p.fail("unexpected `,'")
			}
		}
	}
	p.skipSpace()
	for p.peek() == '!' {
		if cmd.negate {
			p.pos++
			return p.fail("multiple `!'s")
		}
		cmd.negate = true
		p.pos++
		p.skipSpace()
	}
	if p.eof() {
		return p.fail("missing command")
	}
	cmd.name = p.next()
	if cmd.a1 != nil && cmd.a1.kind == sedAddrLine && cmd.a1.n == 0 && (cmd.a2 == nil || cmd.a2.kind != sedAddrRegex) {
		return p.fail("invalid usage of line address 0")
	}
	return p.commandBody(cmd)
}

func (p *sedParser) commandBody(cmd *sedCmd) error {
	oneAddress := func() error {
		if cmd.a2 != nil {
			return p.fail("command only uses one address")
		}
		return nil
	}
	switch cmd.name {
	case '{':
		p.blocks = append(p.blocks, len(p.prog))
		p.prog = append(p.prog, cmd)
		return nil
	case '}':
		if cmd.a1 != nil {
			return p.fail("} doesn't want any addresses")
		}
		if len(p.blocks) == 0 {
			return p.fail("unexpected `}'")
		}
		open := p.blocks[len(p.blocks)-1]
		p.blocks = p.blocks[:len(p.blocks)-1]
		p.prog[open].jump = len(p.prog) + 1
		p.prog = append(p.prog, cmd)
		return p.endOfCommand()
	case '#':
		return p.fail("comments don't accept any addresses")
	case ':':
		if cmd.a1 != nil {
			return p.fail(": doesn't want any addresses")
		}
		label := p.label()
		if label == "" {
			return p.fail("\":\" lacks a label")
		}
		cmd.text = label
	case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		p.prog = append(p.prog, cmd)
		return p.endOfCommand()
	case 'a', 'i', 'c':
		text, err := p.text()
		if err != nil {
			return err
		}
		cmd.text = text
	case 'b', 't', 'T':
		cmd.text = p.label()
	case 'q', 'Q':
		if err := oneAddress(); err != nil {
			return err
		}
		p.skipSpace()
		if n, ok := p.number(); ok {
			cmd.intArg = n
		} else {
			cmd.intArg = 0
		}
		p.prog = append(p.prog, cmd)
		return p.endOfCommand()
	case 'l', 'L':
		if cmd.name == 'L' {
			return p.fail("unknown command: `L'")
		}
		p.skipSpace()
		if n, ok := p.number(); ok {
			cmd.intArg = n
		}
		p.prog = append(p.prog, cmd)
		return p.endOfCommand()
	case 'r', 'R', 'w', 'W':
		if p.cfg.sandbox {
			return p.fail("e/r/w commands disabled in sandbox mode")
		}
		name := p.fileName()
		if name == "" {
			return p.fail("missing filename in r/R/w/W commands")
		}
		cmd.text = name
	case 's':
		sub, err := p.substitute()
		if err != nil {
			return err
		}
		cmd.sub = sub
		p.prog = append(p.prog, cmd)
		return nil
	case 'y':
		m, err := p.transliterate()
		if err != nil {
			return err
		}
		cmd.ymap = m
		p.prog = append(p.prog, cmd)
		return p.endOfCommand()
	case 'e':
		return p.fail("e command is not supported: gatehouse runs no host commands")
	case 'v':
		p.label()
		return nil
	default:
		return p.fail("unknown command: `" + string(cmd.name) + "'")
	}
	p.prog = append(p.prog, cmd)
	return nil
}

// endOfCommand accepts what may follow a command: blanks, then ';', '}',
// '#', a newline or the end.
func (p *sedParser) endOfCommand() error {
	p.skipSpace()
	switch p.peek() {
	case 0, ';', '\n':
		if !p.eof() && p.peek() != 0 {
			p.pos++
		}
		return nil
	case '}', '#':
		return nil
	}
	p.pos++
	return p.fail("extra characters after command")
}

func (p *sedParser) number() (int, bool) {
	start := p.pos
	for !p.eof() && p.peek() >= '0' && p.peek() <= '9' {
		p.pos++
	}
	if start == p.pos {
		return 0, false
	}
	n, err := strconv.Atoi(p.src[start:p.pos])
	if err != nil {
		n = int(^uint(0) >> 1)
	}
	return n, true
}

func (p *sedParser) address() (*sedAddr, error) {
	c := p.peek()
	switch {
	case c >= '0' && c <= '9':
		n, _ := p.number()
		p.skipSpace()
		if p.peek() == '~' {
			p.pos++
			p.skipSpace()
			step, _ := p.number()
			return &sedAddr{kind: sedAddrStep, n: n, step: step}, nil
		}
		return &sedAddr{kind: sedAddrLine, n: n}, nil
	case c == '$':
		p.pos++
		return &sedAddr{kind: sedAddrLast}, nil
	case c == '/' || c == '\\':
		p.pos++
		delim := byte('/')
		if c == '\\' {
			if p.eof() {
				return nil, p.fail("unexpected end of file")
			}
			delim = p.next()
		}
		body, ok := p.delimited(delim, true)
		if !ok {
			return nil, p.fail("unterminated address regex")
		}
		flags := ""
		for p.peek() == 'I' || p.peek() == 'M' {
			flags += string(p.next())
		}
		re, err := p.compileRegex(body, strings.Contains(flags, "I"), strings.Contains(flags, "M"))
		if err != nil {
			return nil, err
		}
		return &sedAddr{kind: sedAddrRegex, re: re}, nil
	}
	return nil, nil
}

func (p *sedParser) secondAddress() (*sedAddr, error) {
	c := p.peek()
	if c == '+' || c == '~' {
		p.pos++
		n, ok := p.number()
		if !ok {
			return nil, p.fail("expected address")
		}
		if c == '+' {
			return &sedAddr{kind: sedAddrPlus, n: n}, nil
		}
		return &sedAddr{kind: sedAddrMult, n: n}, nil
	}
	a, err := p.address()
	if err != nil || a == nil {
		return a, err
	}
	if a.kind == sedAddrStep {
		// addr1,first~step means up to the next multiple; GNU reads
		// the step part as the ~N form.
		return &sedAddr{kind: sedAddrLine, n: a.n}, nil
	}
	return a, nil
}

// delimited reads up to an unescaped delim. A backslash before the
// delimiter yields the delimiter itself; a backslash-newline is a
// newline; other escapes are kept for the next stage.
func (p *sedParser) delimited(delim byte, isRegex bool) (string, bool) {
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		switch {
		case c == '\\':
			if p.eof() {
				return "", false
			}
			d := p.next()
			switch {
			case d == delim:
				b.WriteByte(d)
			case d == '\n':
				if isRegex {
					b.WriteString(`\n`)
				} else {
					b.WriteByte('\n')
				}
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		case c == delim:
			return b.String(), true
		case c == '\n' && isRegex:
			return "", false
		case c == '[' && isRegex:
			// A bracket expression may hold the delimiter: s/[/]/x/. One
			// that never closes swallows the rest, as in GNU sed, so the
			// command is unterminated (s/a[/x/).
			end := sedBracketEnd(p.src, p.pos-1)
			if end == 0 {
				p.pos = len(p.src)
				return "", false
			}
			b.WriteString(p.src[p.pos-1 : end])
			p.pos = end
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// sedBracketEnd returns the offset just past the bracket expression
// opening at src[start], or 0 when it does not close on this line.
func sedBracketEnd(src string, start int) int {
	j := start + 1
	if j < len(src) && src[j] == '^' {
		j++
	}
	if j < len(src) && src[j] == ']' {
		j++
	}
	for j < len(src) && src[j] != '\n' {
		switch {
		case src[j] == ']':
			return j + 1
		case src[j] == '[' && j+1 < len(src) && strings.IndexByte(":.=", src[j+1]) >= 0:
			end := strings.Index(src[j+2:], string(src[j+1])+"]")
			if end < 0 {
				return 0
			}
			j += 2 + end + 2
		default:
			j++
		}
	}
	return 0
}

// label reads a label for : b t T: up to a newline or ';', trimmed.
func (p *sedParser) label() string {
	p.skipSpace()
	start := p.pos
	for !p.eof() && p.peek() != '\n' && p.peek() != ';' {
		p.pos++
	}
	label := strings.TrimRight(p.src[start:p.pos], " \t")
	if !p.eof() {
		p.pos++
	}
	return label
}

// fileName reads the file name of r R w W: the rest of the line.
func (p *sedParser) fileName() string {
	p.skipSpace()
	start := p.pos
	for !p.eof() && p.peek() != '\n' {
		p.pos++
	}
	name := p.src[start:p.pos]
	if !p.eof() {
		p.pos++
	}
	return name
}

// text reads the text of a, i and c, in both the classic form (a\ then
// the text on the next lines) and GNU's one-line form (a text).
func (p *sedParser) text() (string, error) {
	p.skipSpace()
	if p.eof() {
		return "", p.fail("expected \\ after `a', `c' or `i'")
	}
	if p.peek() == '\\' {
		p.pos++
		if p.peek() == '\n' {
			p.pos++
		}
	}
	var b strings.Builder
	for !p.eof() {
		c := p.next()
		if c == '\n' {
			break
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if p.eof() {
			break
		}
		d := p.next()
		switch d {
		case '\n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		default:
			b.WriteByte(d)
		}
	}
	return b.String(), nil
}

// resolveLabels points every b, t and T at its label (or the end).
func (p *sedParser) resolveLabels() error {
	labels := map[string]int{}
	for i, c := range p.prog {
		if c.name == ':' {
			if _, dup := labels[c.text]; dup {
				return &sedParseError{msg: "-e expression #1, char 0: duplicate label `" + c.text + "'"}
			}
			labels[c.text] = i
		}
	}
	for _, c := range p.prog {
		if c.name != 'b' && c.name != 't' && c.name != 'T' {
			continue
		}
		if c.text == "" {
			c.jump = len(p.prog)
			continue
		}
		target, ok := labels[c.text]
		if !ok {
			return &sedParseError{msg: "can't find label for jump to `" + c.text + "'", status: 4}
		}
		c.jump = target
	}
	return nil
}
