package utils

import (
	"io/fs"
	"strconv"
	"strings"
	"time"
)

const findHelp = `Usage: find [-H] [-L] [-P] [-Olevel] [-D debugopts] [path...] [expression]

default path is the current directory; default expression is -print
expression may consist of: operators, options, tests, and actions:

operators (decreasing precedence; -and is implicit where no others are given):
      ( EXPR )   ! EXPR   -not EXPR   EXPR1 -a EXPR2   EXPR1 -and EXPR2
      EXPR1 -o EXPR2   EXPR1 -or EXPR2   EXPR1 , EXPR2

positional options (always true):
      -daystart -follow -nowarn -regextype -warn

normal options (always true, specified before other expressions):
      -depth -files0-from FILE -maxdepth LEVELS -mindepth LEVELS
       -mount -noleaf -xdev -ignore_readdir_race -noignore_readdir_race

tests (N can be +N or -N or N):
      -amin N -anewer FILE -atime N -cmin N -cnewer FILE -ctime N
      -empty -false -gid N -group NAME -ilname PATTERN -iname PATTERN
      -ipath PATTERN -iregex PATTERN -iwholename PATTERN -links N
      -lname PATTERN -mmin N -mtime N -name PATTERN -newer FILE
      -nouser -nogroup -path PATTERN -perm [-/]MODE -regex PATTERN
      -readable -writable -executable
      -wholename PATTERN -size N[bcwkMG] -true -type [bcdpflsD] -uid N
      -used N -user NAME -xtype [bcdpfls]

actions:
      -delete -print0 -printf FORMAT -prune -print -quit -ls
      -exec COMMAND ; -exec COMMAND {} + -ok COMMAND ;
      -execdir COMMAND ; -execdir COMMAND {} + -okdir COMMAND ;

Commands of -exec run through the workspace's gate like any other.
`

const findVersion = "find (GNU findutils) 4.9.0\n"

// findUtility makes the find utility (see builtins).
func findUtility(string) *Utility {
	return &Utility{
		Name:        "find",
		Run:         runFind,
		Operands:    findOperands,
		OperandExit: 1,
		Voice:       func(arg, msg string) string { return "find: " + quoteAlways(arg) + ": " + msg + "\n" },
		Help:        findHelp,
	}
}

// findOperands: the start points, and the files tests name (-newer F).
func findOperands(argv []string) []OperandRef {
	p := &findParser{args: argv, pos: 1}
	p.leadingOptions()
	var refs []OperandRef
	for _, i := range p.startPoints() {
		refs = append(refs, OperandRef{Index: i, Kind: Read})
	}
	for i := p.pos; i < len(argv); i++ {
		switch argv[i] {
		case "-newer", "-anewer", "-cnewer", "-samefile", "-files0-from":
			if i+1 < len(argv) {
				refs = append(refs, OperandRef{Index: i + 1, Kind: Read})
				i++
			}
		case "-newerma", "-newermc", "-newermm", "-newermB", "-neweraa", "-newerac", "-neweram", "-neweraB",
			"-newerca", "-newercc", "-newercm", "-newercB", "-newerBa", "-newerBc", "-newerBm", "-newerBB":
			if i+1 < len(argv) {
				refs = append(refs, OperandRef{Index: i + 1, Kind: Read})
				i++
			}
		case "-fprint", "-fprint0", "-fls":
			if i+1 < len(argv) {
				refs = append(refs, OperandRef{Index: i + 1, Kind: Write})
				i++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			// The command's own words are judged when it runs.
			for i++; i < len(argv) && argv[i] != ";" && !(argv[i] == "+" && argv[i-1] == "{}"); i++ {
			}
		}
	}
	return refs
}

// findNode is one node of the expression tree.
type findNode interface {
	eval(r *findRun, f *findFile) bool
}

type findAnd struct{ left, right findNode }
type findOr struct{ left, right findNode }
type findNot struct{ inner findNode }
type findComma struct{ left, right findNode }
type findPred func(r *findRun, f *findFile) bool

// Operators stop as soon as -quit ran: find exits at that point, so
// nothing after it in the expression (such as the implicit -print) runs.
func (n findAnd) eval(r *findRun, f *findFile) bool {
	return n.left.eval(r, f) && !r.quit && n.right.eval(r, f)
}
func (n findOr) eval(r *findRun, f *findFile) bool {
	return (n.left.eval(r, f) || (!r.quit && n.right.eval(r, f))) && !r.quit
}
func (n findNot) eval(r *findRun, f *findFile) bool { return !n.inner.eval(r, f) && !r.quit }
func (n findComma) eval(r *findRun, f *findFile) bool {
	n.left.eval(r, f)
	return !r.quit && n.right.eval(r, f)
}
func (p findPred) eval(r *findRun, f *findFile) bool { return p(r, f) }

// findParseError is a mistake in the expression; find reports it and
// exits 1 without searching.
type findParseError struct{ msg string }

// findParser reads the command line.
type findParser struct {
	args []string
	pos  int
	t    *tool
	run  *findRun
	// sawAction turns the implicit -print off.
	sawAction bool
	// lastNonOption is the last test or action seen, for the warning about
	// global options placed after it.
	lastNonOption string
	// warn is -warn: GNU find warns only when asked (or on a terminal,
	// which a workspace never is).
	warn bool
	err  *findParseError
	// depth is how deeply the node being parsed sits in the tree: each
	// '!', '(' and each operator of a chain adds one (see findMaxNesting).
	depth int
}

// findMaxNesting bounds the expression tree: it is evaluated by recursion
// for every file, and an exhausted goroutine stack ends the whole process
// (G-12.3).
const findMaxNesting = 1000

// deeper notes one more level of the tree; past the bound it fails the
// parse.
func (p *findParser) deeper() bool {
	p.depth++
	if p.depth > findMaxNesting {
		p.fail("expression nested too deeply (limit " + strconv.Itoa(findMaxNesting) + ")")
		return false
	}
	return true
}

func (p *findParser) fail(msg string) findNode {
	if p.err == nil {
		p.err = &findParseError{msg}
	}
	return findPred(func(*findRun, *findFile) bool { return false })
}

// leadingOptions consumes -H, -L, -P, -D and -O.
func (p *findParser) leadingOptions() {
	for p.pos < len(p.args) {
		a := p.args[p.pos]
		switch {
		case a == "-H" || a == "-L" || a == "-P":
			if p.run != nil {
				p.run.follow = a
			}
		case a == "-D":
			p.pos++
		case strings.HasPrefix(a, "-O") || strings.HasPrefix(a, "-D"):
		case a == "--":
			p.pos++
			return
		default:
			return
		}
		p.pos++
	}
}

// startPoints returns the argv indexes of the paths before the expression.
func (p *findParser) startPoints() []int {
	var idx []int
	for p.pos < len(p.args) {
		a := p.args[p.pos]
		if (len(a) > 1 && a[0] == '-') || a == "(" || a == "!" || a == ")" || a == "," {
			break
		}
		idx = append(idx, p.pos)
		p.pos++
	}
	return idx
}

func (p *findParser) peek() (string, bool) {
	if p.pos < len(p.args) {
		return p.args[p.pos], true
	}
	return "", false
}

// parseExpression parses the whole expression (lowest precedence: comma).
func (p *findParser) parseExpression() findNode {
	defer func(depth int) { p.depth = depth }(p.depth)
	left := p.parseOr()
	for {
		if p.err != nil || !p.deeper() {
			return left
		}
		tok, ok := p.peek()
		if !ok || tok != "," {
			return left
		}
		p.pos++
		if _, more := p.peek(); !more {
			return p.fail("invalid expression; expected expression after ','")
		}
		left = findComma{left, p.parseOr()}
	}
}

func (p *findParser) parseOr() findNode {
	defer func(depth int) { p.depth = depth }(p.depth)
	left := p.parseAnd()
	for {
		if p.err != nil || !p.deeper() {
			return left
		}
		tok, ok := p.peek()
		if !ok || (tok != "-o" && tok != "-or") {
			return left
		}
		p.pos++
		if _, more := p.peek(); !more {
			return p.fail("expected an expression after '" + tok + "'")
		}
		if next, _ := p.peek(); next == ")" || next == "-o" || next == "-a" || next == "," {
			return p.fail("invalid expression; you have used a binary operator '" + tok + "' with nothing after it.")
		}
		left = findOr{left, p.parseAnd()}
	}
}

func (p *findParser) parseAnd() findNode {
	defer func(depth int) { p.depth = depth }(p.depth)
	left := p.parseUnary()
	for {
		if p.err != nil || !p.deeper() {
			return left
		}
		tok, ok := p.peek()
		if !ok || tok == "-o" || tok == "-or" || tok == ")" || tok == "," {
			return left
		}
		if tok == "-a" || tok == "-and" {
			p.pos++
			if _, more := p.peek(); !more {
				return p.fail("expected an expression after '" + tok + "'")
			}
			if next, _ := p.peek(); next == ")" || next == "-o" || next == "-a" {
				return p.fail("invalid expression; you have used a binary operator '" + tok + "' with nothing after it.")
			}
		}
		left = findAnd{left, p.parseUnary()}
	}
}

func (p *findParser) parseUnary() findNode {
	defer func(depth int) { p.depth = depth }(p.depth)
	if p.err != nil || !p.deeper() {
		return findTrue()
	}
	tok, ok := p.peek()
	if !ok {
		return p.fail("invalid expression")
	}
	switch tok {
	case "!", "-not":
		p.pos++
		if _, more := p.peek(); !more {
			return p.fail("invalid expression; you have used a binary operator '" + tok + "' with nothing after it.")
		}
		return findNot{p.parseUnary()}
	case "(":
		p.pos++
		if next, more := p.peek(); more && next == ")" {
			return p.fail("invalid expression; empty parentheses are not allowed.")
		}
		inner := p.parseExpression()
		if next, more := p.peek(); !more || next != ")" {
			return p.fail("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.pos++
		return inner
	case ")":
		return p.fail("invalid expression; you have too many ')'")
	case "-o", "-or", "-a", "-and", ",":
		return p.fail("invalid expression; you have used a binary operator '" + tok + "' with nothing before it.")
	}
	p.pos++
	return p.primary(tok)
}

// pathsMustPrecede reports a start point found inside the expression at
// argv index idx. When it names an existing file, the shell probably
// expanded an unquoted glob, and GNU says so, naming the last predicate.
func (p *findParser) pathsMustPrecede(idx int) findNode {
	msg := "paths must precede expression: `" + p.args[idx] + "'"
	if p.t != nil {
		if _, err := p.t.env.FS.Stat(p.t.abs(p.args[idx])); err == nil {
			for j := idx - 1; j > 0; j-- {
				if a := p.args[j]; len(a) > 1 && a[0] == '-' {
					msg += "\nfind: possible unquoted pattern after predicate `" + a + "'?"
					break
				}
			}
		}
	}
	return p.fail(msg)
}

// arg takes the argument of a primary.
func (p *findParser) arg(primary string) (string, bool) {
	if p.pos >= len(p.args) {
		p.fail("missing argument to `" + primary + "'")
		return "", false
	}
	a := p.args[p.pos]
	p.pos++
	return a, true
}

// globalOption notes a global option and warns when it follows a test.
func (p *findParser) globalOption(name string) {
	if p.warn && p.lastNonOption != "" && p.t != nil {
		p.t.warn("warning: you have specified the global option " + name + " after the argument " + p.lastNonOption +
			", but global options are not positional, i.e., " + name + " affects tests specified before it as well as those specified after it.  Please specify global options before other arguments.")
	}
}

// numericArg parses N, +N or -N for tests like -mtime and -links.
type numericArg struct {
	cmp int // -1 less than, 0 exactly, +1 more than
	n   int64
}

func parseNumericArg(s string) (numericArg, bool) {
	var a numericArg
	switch {
	case strings.HasPrefix(s, "+"):
		a.cmp, s = 1, s[1:]
	case strings.HasPrefix(s, "-"):
		a.cmp, s = -1, s[1:]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || s == "" || s[0] == '+' || s[0] == '-' {
		return a, false
	}
	a.n = n
	return a, true
}

func (a numericArg) matches(v int64) bool {
	switch a.cmp {
	case 1:
		return v > a.n
	case -1:
		return v < a.n
	}
	return v == a.n
}

// fileTypeLetter is find's letter for a mode (-type, %y).
func fileTypeLetter(m fs.FileMode) byte {
	switch {
	case m&fs.ModeDir != 0:
		return 'd'
	case m&fs.ModeSymlink != 0:
		return 'l'
	case m&fs.ModeNamedPipe != 0:
		return 'p'
	case m&fs.ModeSocket != 0:
		return 's'
	case m&fs.ModeCharDevice != 0:
		return 'c'
	case m&fs.ModeDevice != 0:
		return 'b'
	}
	return 'f'
}

// ageIn is how many whole units ago t was.
func ageIn(now, t time.Time, unit time.Duration) int64 {
	d := now.Sub(t)
	if d < 0 {
		return -int64((-d + unit - 1) / unit)
	}
	return int64(d / unit)
}
