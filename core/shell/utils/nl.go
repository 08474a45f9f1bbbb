package utils

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"strconv"
	"strings"
)

const nlHelp = `Usage: nl [OPTION]... [FILE]...
Write each FILE to standard output, with line numbers added.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -b, --body-numbering=STYLE      use STYLE for numbering body lines
  -d, --section-delimiter=CC      use CC for logical page delimiters
  -f, --footer-numbering=STYLE    use STYLE for numbering footer lines
  -h, --header-numbering=STYLE    use STYLE for numbering header lines
  -i, --line-increment=NUMBER     line number increment at each line
  -l, --join-blank-lines=NUMBER   group of NUMBER empty lines counted as one
  -n, --number-format=FORMAT      insert line numbers according to FORMAT
  -p, --no-renumber               do not reset line numbers for each section
  -s, --number-separator=STRING   add STRING after (possible) line number
  -v, --starting-line-number=NUMBER  first line number for each section
  -w, --number-width=NUMBER       use NUMBER columns for line numbers
      --help        display this help and exit
      --version     output version information and exit

Default options are: -bt -d'\:' -fn -hn -i1 -l1 -n'rn' -s<TAB> -v1 -w6

CC are two delimiter characters used to construct logical page delimiters;
a missing second character implies ':'.  As a GNU extension one can specify
more than two characters, and also specifying the empty string (-d '')
disables section matching.

STYLE is one of:

  a      number all lines
  t      number only nonempty lines
  n      number no lines
  pBRE   number only lines that contain a match for the basic regular
         expression, BRE

FORMAT is one of:

  ln     left justified, no leading zeros
  rn     right justified, no leading zeros
  rz     right justified, leading zeros
`

var nlOpts = []optDef{
	{short: 'b', long: "body-numbering", arg: needArg},
	{short: 'd', long: "section-delimiter", arg: needArg},
	{short: 'f', long: "footer-numbering", arg: needArg},
	{short: 'h', long: "header-numbering", arg: needArg},
	{short: 'i', long: "line-increment", arg: needArg},
	{short: 'l', long: "join-blank-lines", arg: needArg},
	{short: 'n', long: "number-format", arg: needArg},
	{short: 'p', long: "no-renumber"},
	{short: 's', long: "number-separator", arg: needArg},
	{short: 'v', long: "starting-line-number", arg: needArg},
	{short: 'w', long: "number-width", arg: needArg},
}

// nlUtility makes the nl utility (see builtins).
func nlUtility(string) *Utility {
	return &Utility{
		Name:        "nl",
		Run:         runNl,
		Operands:    plainOperands(nlOpts, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("nl"),
		Help:        nlHelp,
	}
}

// nlStyle decides which lines of a section get a number.
type nlStyle struct {
	kind byte // 'a', 't', 'n' or 'p'
	re   *regexp.Regexp
}

func (s nlStyle) numbers(line []byte) bool {
	switch s.kind {
	case 'a':
		return true
	case 't':
		return len(line) > 0
	case 'p':
		return s.re.Match(line)
	}
	return false
}

type nlConfig struct {
	styles     [3]nlStyle // header, body, footer
	delim      string
	increment  int64
	joinBlank  int64
	format     string
	noRenumber bool
	separator  string
	start      int64
	width      int
}

type nlState struct {
	number  int64
	section int // 0 header, 1 body, 2 footer
	blanks  int64
}

func runNl(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "nl", defs: nlOpts, usageExit: 1, help: nlHelp})
	if done {
		return status, nil
	}
	cfg := &nlConfig{delim: `\:`, increment: 1, joinBlank: 1, format: "rn", separator: "\t", start: 1, width: 6}
	cfg.styles = [3]nlStyle{{kind: 'n'}, {kind: 't'}, {kind: 'n'}}
	number := func(o parsedOpt, what string, min int64) (int64, bool) {
		n, err := strconv.ParseInt(o.value, 10, 64)
		if err != nil || n < min {
			t.warn("invalid " + what + ": " + quoteAlways(o.value))
			return 0, false
		}
		return n, true
	}
	for _, o := range args.opts {
		var ok = true
		switch o.name {
		case "header-numbering", "body-numbering", "footer-numbering":
			style, msg := nlParseStyle(o.value)
			if msg != "" {
				return t.end(t.usage("invalid " + strings.TrimSuffix(o.name, "-numbering") + " " + msg))
			}
			cfg.styles[map[string]int{"header-numbering": 0, "body-numbering": 1, "footer-numbering": 2}[o.name]] = style
		case "section-delimiter":
			cfg.delim = o.value
			if len(cfg.delim) == 1 {
				cfg.delim += ":"
			}
		case "line-increment":
			cfg.increment, ok = number(o, "line number increment", 0)
		case "join-blank-lines":
			cfg.joinBlank, ok = number(o, "line number of blank lines", 1)
		case "number-format":
			if o.value != "ln" && o.value != "rn" && o.value != "rz" {
				t.warn("invalid line numbering format: " + quoteAlways(o.value))
				return t.end(1)
			}
			cfg.format = o.value
		case "no-renumber":
			cfg.noRenumber = true
		case "number-separator":
			cfg.separator = o.value
		case "starting-line-number":
			cfg.start, ok = number(o, "starting line number", -1<<62)
		case "number-width":
			var w int64
			w, ok = number(o, "line number field width", 1)
			cfg.width = int(w)
			// Every numbered line builds its field whole: a width of
			// 999999999 asks the line's memory budget first (G-12.3).
			if ok && w > wideField && e.Grow(2*w) != nil {
				return t.end(1)
			}
		}
		if !ok {
			return t.end(1)
		}
	}
	files := args.operandStrings(e.Args)
	if len(files) == 0 {
		files = []string{"-"}
	}
	st := &nlState{number: cfg.start, section: 1}
	for _, name := range files {
		if t.stopped() {
			break
		}
		in, closeIn, err := openOperand(t, name)
		if err != nil {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
			continue
		}
		err = nlStream(t, cfg, st, in)
		closeIn()
		if err != nil && !t.broken() {
			t.warn(quoteIfNeeded(name) + ": " + errText(err))
			status = 1
		}
	}
	return t.end(status)
}

func nlParseStyle(v string) (nlStyle, string) {
	switch {
	case v == "a" || v == "t" || v == "n":
		return nlStyle{kind: v[0]}, ""
	case strings.HasPrefix(v, "p"):
		translated, err := TranslateRegex(v[1:], RegexOptions{Dialect: BasicRegex})
		if err == nil {
			var re *regexp.Regexp
			if re, err = regexp.Compile(translated); err == nil {
				return nlStyle{kind: 'p', re: re}, ""
			}
		}
		return nlStyle{}, "numbering style: " + err.Error()
	}
	return nlStyle{}, "numbering style: " + quoteAlways(v)
}

func nlStream(t *tool, cfg *nlConfig, st *nlState, in io.Reader) error {
	br := bufio.NewReader(in)
	for !t.stopped() {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			body := bytes.TrimSuffix(line, []byte{'\n'})
			nlLine(t, cfg, st, body)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// nlLine prints one line: a section delimiter becomes an empty line and
// switches section; other lines get a number or blank padding.
func nlLine(t *tool, cfg *nlConfig, st *nlState, body []byte) {
	if d := cfg.delim; d != "" {
		for sec, reps := range []int{3, 2, 1} {
			if string(body) == strings.Repeat(d, reps) {
				st.section = sec
				if !cfg.noRenumber {
					st.number = cfg.start
				}
				t.writeString("\n")
				return
			}
		}
	}
	style := cfg.styles[st.section]
	numbered := style.numbers(body)
	if numbered && style.kind == 'a' && len(body) == 0 && cfg.joinBlank > 1 {
		st.blanks++
		numbered = st.blanks%cfg.joinBlank == 0
	} else if len(body) > 0 {
		st.blanks = 0
	}
	var prefix string
	if numbered {
		prefix = nlNumber(cfg, st.number) + cfg.separator
		st.number += cfg.increment
	} else {
		prefix = strings.Repeat(" ", cfg.width+len(cfg.separator))
	}
	t.writeString(prefix + string(body) + "\n")
}

func nlNumber(cfg *nlConfig, n int64) string {
	s := strconv.FormatInt(n, 10)
	switch cfg.format {
	case "ln":
		return s + strings.Repeat(" ", max(cfg.width-len(s), 0))
	case "rz":
		sign := ""
		if n < 0 {
			sign, s = "-", s[1:]
		}
		return sign + strings.Repeat("0", max(cfg.width-len(s)-len(sign), 0)) + s
	}
	return strings.Repeat(" ", max(cfg.width-len(s), 0)) + s
}
