package utils

import (
	"bufio"
	"math"
	"strconv"
	"strings"
)

const fmtHelp = `Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help        display this help and exit
      --version     output version information and exit
`

var fmtOpts = []optDef{
	{short: 'c', long: "crown-margin"},
	{short: 'p', long: "prefix", arg: needArg},
	{short: 's', long: "split-only"},
	{short: 't', long: "tagged-paragraph"},
	{short: 'u', long: "uniform-spacing"},
	{short: 'w', long: "width", arg: needArg},
	{short: 'g', long: "goal", arg: needArg},
}

var fmtMode = parseMode{digitsAs: "digit"}

// fmtUtility makes fmt (see builtins).
func fmtUtility(string) *Utility {
	return &Utility{
		Name:        "fmt",
		Keeps:       KeepsNothing, // a paragraph is held up to fmt's own bounds (below)
		Run:         runFmt,
		Operands:    func(argv []string) []OperandRef { return inputOperands(fmtOpts, fmtMode)(fmtArgv(argv)) },
		OperandExit: 1,
		Voice: func(arg, msg string) string {
			return "fmt: cannot open " + quoteAlways(arg) + " for reading: " + msg + "\n"
		},
		Help: fmtHelp,
	}
}

// fmtArgv blanks a leading -WIDTH (fmt's abbreviation, only as the first
// argument) so the option parser sees an empty operand-free slot.
func fmtArgv(argv []string) []string {
	if len(argv) > 1 && len(argv[1]) > 1 && argv[1][0] == '-' && argv[1][1] >= '0' && argv[1][1] <= '9' {
		out := append([]string{argv[0], "--width=" + argv[1][1:]}, argv[2:]...)
		return out
	}
	return argv
}

// GNU fmt's bounds and costs: a paragraph holds at most fmtMaxWords words
// and fmtMaxChars bytes before its first lines are printed.
const (
	fmtMaxWords = 1000
	fmtMaxChars = 5000
	fmtTab      = 8
	fmtLeeway   = 7
)

func fmtEquiv(n int64) int64 { return n * n }

var (
	fmtLineCost      = fmtEquiv(70)
	fmtSentenceBonus = fmtEquiv(50)
	fmtNoBreakCost   = fmtEquiv(600)
	fmtParenBonus    = fmtEquiv(40)
	fmtPunctBonus    = fmtEquiv(40)
	fmtLineCredit    = fmtEquiv(3)
)

func fmtShortCost(n int64) int64  { return fmtEquiv(n * 10) }
func fmtRaggedCost(n int64) int64 { return fmtShortCost(n) / 2 }
func fmtWidowCost(n int) int64    { return fmtEquiv(200) / int64(n+2) }
func fmtOrphanCost(n int) int64   { return fmtEquiv(150) / int64(n+2) }

// fmtWord is a word of the paragraph being filled.
type fmtWord struct {
	text                        []byte
	length, space               int
	paren, period, punct, final bool
	lineLength                  int
	bestCost                    int64
	nextBreak                   int // index of the word after this one's line
}

// fmtState is GNU fmt's state while it reads one file.
type fmtState struct {
	t                                  *tool
	in                                 *bufio.Reader
	maxWidth, goalWidth                int
	crown, tagged, split, uniform      bool
	prefix                             string
	prefixLength, prefixFull, leadSp   int
	tabs                               bool
	inColumn, outColumn                int
	prefixIndent, nextPrefixIndent     int
	firstIndent, otherIndent, lastLine int
	nextChar                           int
	words                              []fmtWord // plus one sentinel past the end
	chars                              int
}

func runFmt(e *Env) (int, error) {
	e.Args = fmtArgv(e.Args)
	t, args, status, done := begin(e, spec{name: "fmt", defs: fmtOpts, mode: fmtMode, usageExit: 1, help: fmtHelp})
	if done {
		return status, nil
	}
	for _, o := range args.opts {
		if o.name == "digit" {
			return t.end(t.usage("invalid option -- " + o.value[:1] + "; -WIDTH is recognized only when it is the first\noption; use -w N instead"))
		}
	}
	st := &fmtState{t: t, maxWidth: 75}
	var width, goal string
	for _, o := range args.opts {
		switch o.name {
		case "crown-margin":
			st.crown = true
		case "split-only":
			st.split = true
		case "tagged-paragraph":
			st.tagged = true
		case "uniform-spacing":
			st.uniform = true
		case "width":
			width = o.value
		case "goal":
			goal = o.value
		case "prefix":
			st.setPrefix(o.value)
		}
	}
	if width != "" {
		n, msg := fmtWidth(width, fmtMaxChars/2)
		if msg != "" {
			t.warn(msg)
			return t.end(1)
		}
		st.maxWidth = n
	}
	if goal != "" {
		n, msg := fmtWidth(goal, st.maxWidth)
		if msg != "" {
			t.warn(msg)
			return t.end(1)
		}
		st.goalWidth = n
		if width == "" {
			st.maxWidth = n + 10
		}
	} else {
		st.goalWidth = st.maxWidth * (2*(100-fmtLeeway) + 1) / 200
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	status = 0
	for _, name := range files {
		if t.stopped() {
			break
		}
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn("cannot open " + quoteAlways(name) + " for reading: " + errText(err))
			status = 1
			continue
		}
		st.in = bufio.NewReader(ctxReader(t, in))
		if err := st.file(); err != nil && !t.stopped() {
			t.warn("read error: " + errText(err))
			status = 1
		}
		closeIn()
	}
	return t.end(status)
}

// fmtWidth reads a width of at most limit, with GNU's complaint.
func fmtWidth(s string, limit int) (int, string) {
	n, err := strconv.ParseUint(s, 10, 64)
	switch {
	case err != nil && !strings.Contains(err.Error(), "range"):
		return 0, "invalid width: " + quoteAlways(s)
	case err != nil || n > uint64(limit):
		return 0, "invalid width: " + quoteAlways(s) + ": Numerical result out of range"
	}
	return int(n), ""
}

// setPrefix is -p: leading spaces count apart, trailing spaces are only
// needed for the full length.
func (st *fmtState) setPrefix(p string) {
	st.leadSp = 0
	for strings.HasPrefix(p, " ") {
		st.leadSp++
		p = p[1:]
	}
	st.prefixFull = len(p)
	st.prefix = strings.TrimRight(p, " ")
	st.prefixLength = len(st.prefix)
}

// getc is getc(3): a byte, or -1 at the end (or a read error).
func (st *fmtState) getc() int {
	c, err := st.in.ReadByte()
	if err != nil {
		return -1
	}
	return int(c)
}

// file formats one input.
func (st *fmtState) file() error {
	st.tabs = false
	st.otherIndent = 0
	st.nextChar = st.getPrefix()
	for st.paragraph() {
		if st.t.stopped() {
			return nil
		}
		st.fill()
		st.putParagraph(len(st.words))
	}
	return nil
}

// getSpace passes blanks, counting columns (tabs to multiples of 8).
func (st *fmtState) getSpace(c int) int {
	for {
		switch c {
		case ' ':
			st.inColumn++
		case '\t':
			st.tabs = true
			st.inColumn = (st.inColumn/fmtTab + 1) * fmtTab
		default:
			return c
		}
		c = st.getc()
	}
}

// getPrefix reads a line's indentation and prefix; it returns the first
// byte after them (or where the prefix failed to match).
func (st *fmtState) getPrefix() int {
	st.inColumn = 0
	c := st.getSpace(st.getc())
	if st.prefixLength == 0 {
		st.nextPrefixIndent = min(st.leadSp, st.inColumn)
		return c
	}
	st.nextPrefixIndent = st.inColumn
	for i := 0; i < len(st.prefix); i++ {
		if c != int(st.prefix[i]) {
			return c
		}
		st.inColumn++
		c = st.getc()
	}
	return st.getSpace(c)
}

// sameParagraph says whether a line starting (after its prefix) with c
// continues the paragraph.
func (st *fmtState) sameParagraph(c int) bool {
	return st.nextPrefixIndent == st.prefixIndent && st.inColumn >= st.nextPrefixIndent+st.prefixFull &&
		c != '\n' && c != -1
}

func (st *fmtState) setOtherIndent(same bool) {
	switch {
	case st.split:
		st.otherIndent = st.firstIndent
	case st.crown:
		st.otherIndent = st.firstIndent
		if same {
			st.otherIndent = st.inColumn
		}
	case st.tagged:
		if same && st.inColumn != st.firstIndent {
			st.otherIndent = st.inColumn
		} else if st.otherIndent == st.firstIndent {
			st.otherIndent = 3
			if st.firstIndent != 0 {
				st.otherIndent = 0
			}
		}
	default:
		st.otherIndent = st.firstIndent
	}
}

// paragraph reads the next paragraph into words, copying the lines
// before it that are blank or lack the prefix; false at the end.
func (st *fmtState) paragraph() bool {
	st.lastLine = 0
	c := st.nextChar
	for c == '\n' || c == -1 || st.nextPrefixIndent < st.leadSp || st.inColumn < st.nextPrefixIndent+st.prefixFull {
		if c = st.copyRest(c); c == -1 {
			st.nextChar = -1
			return false
		}
		st.t.writeByte('\n')
		if st.t.stopped() {
			return false
		}
		c = st.getPrefix()
	}
	st.prefixIndent = st.nextPrefixIndent
	st.firstIndent = st.inColumn
	st.words, st.chars = st.words[:0], 0
	c = st.getLine(c)
	st.setOtherIndent(st.sameParagraph(c))
	switch {
	case st.split:
	case st.crown:
		if st.sameParagraph(c) {
			c = st.getLine(c)
			for st.sameParagraph(c) && st.inColumn == st.otherIndent {
				c = st.getLine(c)
			}
		}
	case st.tagged:
		if st.sameParagraph(c) && st.inColumn != st.firstIndent {
			c = st.getLine(c)
			for st.sameParagraph(c) && st.inColumn == st.otherIndent {
				c = st.getLine(c)
			}
		}
	default:
		for st.sameParagraph(c) && st.inColumn == st.otherIndent {
			c = st.getLine(c)
		}
	}
	last := &st.words[len(st.words)-1]
	last.period, last.final = true, true
	st.nextChar = c
	return true
}

// getLine reads the words of one line (c is its first byte), then the
// next line's prefix.
func (st *fmtState) getLine(c int) int {
	for {
		var text []byte
		for {
			if st.chars == fmtMaxChars {
				st.setOtherIndent(true)
				st.flush(&text)
			}
			text = append(text, byte(c))
			st.chars++
			if c = st.getc(); c == -1 || fmtIsSpace(c) {
				break
			}
		}
		w := fmtWord{text: text, length: len(text)}
		st.inColumn += w.length
		fmtPunctuation(&w)
		start := st.inColumn
		c = st.getSpace(c)
		w.space = st.inColumn - start
		w.final = c == -1 || (w.period && (c == '\n' || w.space > 1))
		if c == '\n' || c == -1 || st.uniform {
			w.space = 1
			if w.final {
				w.space = 2
			}
		}
		if len(st.words) == fmtMaxWords-2 {
			// GNU flushes with this word as the limit, kept for later.
			st.setOtherIndent(true)
			st.flush(&w.text)
		}
		st.words = append(st.words, w)
		if c == '\n' || c == -1 {
			break
		}
	}
	return st.getPrefix()
}

func fmtIsSpace(c int) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// fmtPunctuation marks a word that opens with a bracket or quote, ends
// with punctuation, or ends a sentence (before closing brackets and quotes).
func fmtPunctuation(w *fmtWord) {
	t := w.text
	w.paren = strings.IndexByte("(['`\"", t[0]) >= 0
	fin := t[len(t)-1]
	w.punct = fin < 0x80 && (fin >= '!' && fin <= '/' || fin >= ':' && fin <= '@' || fin >= '[' && fin <= '`' || fin >= '{' && fin <= '~')
	i := len(t) - 1
	for i > 0 && strings.IndexByte(")]'\"", t[i]) >= 0 {
		i--
	}
	w.period = strings.IndexByte(".?!", t[i]) >= 0
}

// copyRest copies the rest of a line that is not part of a paragraph.
func (st *fmtState) copyRest(c int) int {
	st.outColumn = 0
	if st.inColumn > st.nextPrefixIndent || (c != '\n' && c != -1) {
		st.putSpace(st.nextPrefixIndent)
		for i := 0; st.outColumn != st.inColumn && i < len(st.prefix); i++ {
			st.t.writeByte(st.prefix[i])
			st.outColumn++
		}
		if c != -1 && c != '\n' {
			st.putSpace(st.inColumn - st.outColumn)
		}
		if c == -1 && st.inColumn >= st.nextPrefixIndent+st.prefixLength {
			st.t.writeByte('\n')
		}
	}
	for c != '\n' && c != -1 {
		st.t.writeByte(byte(c))
		c = st.getc()
	}
	return c
}

// fill chooses the line breaks of the paragraph in words: the least total
// cost over every way of breaking it, computed from the last word back.
func (st *fmtState) fill() {
	words := append(st.words, fmtWord{length: st.maxWidth}) // the sentinel
	limit := len(words) - 1
	words[limit].bestCost = 0
	for start := limit - 1; start >= 0; start-- {
		best := int64(math.MaxInt64)
		length := st.otherIndent
		if start == 0 {
			length = st.firstIndent
		}
		length += words[start].length
		for w := start + 1; ; w++ {
			cost := st.lineCost(words, w, length) + words[w].bestCost
			if start == 0 && st.lastLine > 0 {
				cost += fmtRaggedCost(int64(length - st.lastLine))
			}
			if cost < best {
				best = cost
				words[start].nextBreak = w
				words[start].lineLength = length
			}
			if w == limit {
				break
			}
			length += words[w-1].space + words[w].length
			if length >= st.maxWidth {
				break
			}
		}
		words[start].bestCost = best + st.baseCost(words, start)
	}
	st.words = words[:limit]
}

func (st *fmtState) lineCost(words []fmtWord, next, length int) int64 {
	limit := len(words) - 1
	if next == limit {
		return 0
	}
	cost := fmtShortCost(int64(st.goalWidth - length))
	if words[next].nextBreak != limit {
		cost += fmtRaggedCost(int64(length - words[next].lineLength))
	}
	return cost
}

func (st *fmtState) baseCost(words []fmtWord, i int) int64 {
	cost := fmtLineCost
	if i > 0 {
		prev := &words[i-1]
		switch {
		case prev.period && prev.final:
			cost -= fmtSentenceBonus
		case prev.period:
			cost += fmtNoBreakCost
		case prev.punct:
			cost -= fmtPunctBonus
		case i > 1 && words[i-2].final:
			cost += fmtWidowCost(prev.length)
		}
	}
	if words[i].paren {
		cost -= fmtParenBonus
	} else if words[i].final {
		cost += fmtOrphanCost(words[i].length)
	}
	return cost
}

// flush prints the first lines of a paragraph too long to hold, up to a
// cheap break near its end, and keeps the rest (GNU's flush_paragraph).
// partial is the word being read, which stays.
func (st *fmtState) flush(partial *[]byte) {
	if len(st.words) == 0 {
		if partial != nil {
			st.t.write(*partial)
			*partial = (*partial)[:0]
			st.chars = 0
		}
		return
	}
	st.fill()
	limit := len(st.words)
	split, best := limit, int64(math.MaxInt64)
	for w := st.words[0].nextBreak; w != limit; w = st.words[w].nextBreak {
		next := int64(0)
		if nb := st.words[w].nextBreak; nb != limit {
			next = st.words[nb].bestCost
		}
		if d := st.words[w].bestCost - next; d < best {
			split, best = w, d
		}
		if best <= math.MaxInt64-fmtLineCredit {
			best += fmtLineCredit
		}
	}
	st.putParagraph(split)
	st.words = append(st.words[:0], st.words[split:]...)
	st.chars = 0
	for _, w := range st.words {
		st.chars += w.length
	}
	if partial != nil {
		st.chars += len(*partial)
	}
}

// putParagraph prints the lines that start before word finish.
func (st *fmtState) putParagraph(finish int) {
	st.putLine(0, st.firstIndent)
	for w := st.words[0].nextBreak; w < finish; w = st.words[w].nextBreak {
		st.putLine(w, st.otherIndent)
	}
}

func (st *fmtState) putLine(w, indent int) {
	st.outColumn = 0
	st.putSpace(st.prefixIndent)
	st.t.writeString(st.prefix)
	st.outColumn += st.prefixLength
	st.putSpace(indent - st.outColumn)
	end := st.words[w].nextBreak - 1
	for ; w < end; w++ {
		st.t.write(st.words[w].text)
		st.outColumn += st.words[w].length
		st.putSpace(st.words[w].space)
	}
	st.t.write(st.words[w].text)
	st.outColumn += st.words[w].length
	st.lastLine = st.outColumn
	st.t.writeByte('\n')
}

// putSpace moves the output column on by space, with tabs when the input
// had any.
func (st *fmtState) putSpace(space int) {
	target := st.outColumn + space
	if st.tabs {
		tabTarget := target / fmtTab * fmtTab
		if st.outColumn+1 < tabTarget {
			for st.outColumn < tabTarget {
				st.t.writeByte('\t')
				st.outColumn = (st.outColumn/fmtTab + 1) * fmtTab
			}
		}
	}
	for st.outColumn < target {
		st.t.writeByte(' ')
		st.outColumn++
	}
}
