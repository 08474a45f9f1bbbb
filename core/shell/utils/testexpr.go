package utils

import (
	"io/fs"
	"math/big"
	"strconv"
	"strings"
	"time"
)

const testHelp = `Usage: test EXPRESSION
  or:  test
  or:  [ EXPRESSION ]
  or:  [ ]
  or:  [ OPTION
Exit with the status determined by EXPRESSION.

      --help        display this help and exit
      --version     output version information and exit

An omitted EXPRESSION defaults to false.  Otherwise,
EXPRESSION is true or false and sets exit status.  It is one of:

  ( EXPRESSION )               EXPRESSION is true
  ! EXPRESSION                 EXPRESSION is false
  EXPRESSION1 -a EXPRESSION2   both EXPRESSION1 and EXPRESSION2 are true
  EXPRESSION1 -o EXPRESSION2   either EXPRESSION1 or EXPRESSION2 is true

  -n STRING            the length of STRING is nonzero
  STRING               equivalent to -n STRING
  -z STRING            the length of STRING is zero
  STRING1 = STRING2    the strings are equal
  STRING1 != STRING2   the strings are not equal

  INTEGER1 -eq INTEGER2   INTEGER1 is equal to INTEGER2
  INTEGER1 -ge INTEGER2   INTEGER1 is greater than or equal to INTEGER2
  INTEGER1 -gt INTEGER2   INTEGER1 is greater than INTEGER2
  INTEGER1 -le INTEGER2   INTEGER1 is less than or equal to INTEGER2
  INTEGER1 -lt INTEGER2   INTEGER1 is less than INTEGER2
  INTEGER1 -ne INTEGER2   INTEGER1 is not equal to INTEGER2

  FILE1 -ef FILE2   FILE1 and FILE2 have the same device and inode numbers
  FILE1 -nt FILE2   FILE1 is newer (modification date) than FILE2
  FILE1 -ot FILE2   FILE1 is older than FILE2

  -b FILE     FILE exists and is block special
  -c FILE     FILE exists and is character special
  -d FILE     FILE exists and is a directory
  -e FILE     FILE exists
  -f FILE     FILE exists and is a regular file
  -g FILE     FILE exists and is set-group-ID
  -G FILE     FILE exists and is owned by the effective group ID
  -h FILE     FILE exists and is a symbolic link (same as -L)
  -k FILE     FILE exists and has its sticky bit set
  -L FILE     FILE exists and is a symbolic link (same as -h)
  -N FILE     FILE exists and has been modified since it was last read
  -O FILE     FILE exists and is owned by the effective user ID
  -p FILE     FILE exists and is a named pipe
  -r FILE     FILE exists and the user has read access
  -s FILE     FILE exists and has a size greater than zero
  -S FILE     FILE exists and is a socket
  -t FD       file descriptor FD is opened on a terminal
  -u FILE     FILE exists and its set-user-ID bit is set
  -w FILE     FILE exists and the user has write access
  -x FILE     FILE exists and the user has execute (or search) access

Except for -h and -L, all FILE-related tests dereference symbolic links.
Beware that parentheses need to be escaped (e.g., by backslashes) for shells.
INTEGER may also be -l STRING, which evaluates to the length of STRING.
`

// test and [ are the coreutils programs (what xargs and find -exec run);
// a line's own test or [ is the shell's builtin, routed through the VFS.
// testUtility makes test or [ (see builtins).
func testUtility(name string) *Utility {
	return &Utility{Name: name, Run: runTest, Operands: testOperands, OperandExit: 1, Help: testHelp}
}

// testFileOps are the unary operators whose argument is a file.
const testFileOps = "bcdefgGhkLNOprsSuwx"

// testOperands names the arguments of file tests: -f X, X -nt Y.
func testOperands(argv []string) []OperandRef {
	var refs []OperandRef
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if len(a) == 2 && a[0] == '-' && strings.IndexByte(testFileOps, a[1]) >= 0 && i+1 < len(argv) {
			if argv[0] == "[" && i+1 == len(argv)-1 {
				continue
			}
			refs = append(refs, OperandRef{Index: i + 1})
			i++
			continue
		}
		if (a == "-nt" || a == "-ot" || a == "-ef") && i > 1 && i+1 < len(argv) {
			refs = append(refs, OperandRef{Index: i - 1}, OperandRef{Index: i + 1})
		}
	}
	return refs
}

// testSyntaxError carries a diagnostic out of the recursive evaluation.
type testSyntaxError struct{ msg string }

type testEval struct {
	e    *Env
	args []string
	pos  int
	// depth counts open parentheses: each recurses (see testMaxNesting).
	depth int
}

// testMaxNesting bounds nested parentheses; an exhausted goroutine stack
// would end the whole process (G-12.3).
const testMaxNesting = 1000

func runTest(e *Env) (status int, err error) {
	name := e.Args[0]
	t := newTool(e, name, testHelp, 2)
	args := e.Args[1:]
	if name == "[" {
		if len(args) == 1 && args[0] == "--help" {
			t.writeString(testHelp)
			return t.end(0)
		}
		if len(args) == 1 && args[0] == "--version" {
			t.writeString("[ (GNU coreutils) 9.4\n")
			return t.end(0)
		}
		if len(args) == 0 || args[len(args)-1] != "]" {
			t.warn("missing " + quoteAlways("]"))
			return t.end(2)
		}
		args = args[:len(args)-1]
	}
	if len(args) == 0 {
		return 1, nil
	}
	ev := &testEval{e: e, args: args}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(testSyntaxError)
			if !ok {
				panic(r)
			}
			t.warn(se.msg)
			status, err = t.end(2)
		}
	}()
	value := ev.posix(len(args))
	if ev.pos != len(args) {
		ev.fail("extra argument " + quoteAlways(args[ev.pos]))
	}
	if value {
		return 0, nil
	}
	return 1, nil
}

func (ev *testEval) fail(msg string) { panic(testSyntaxError{msg}) }

// beyond is the error for an expression that ends too soon.
func (ev *testEval) beyond() {
	ev.fail("missing argument after " + quoteAlways(ev.args[len(ev.args)-1]))
}

func (ev *testEval) advance(needMore bool) {
	ev.pos++
	if needMore && ev.pos >= len(ev.args) {
		ev.beyond()
	}
}

func (ev *testEval) at(k int) string { return ev.args[ev.pos+k] }

// posix applies POSIX's rules for 1 to 4 arguments, then the grammar.
func (ev *testEval) posix(n int) bool {
	switch n {
	case 1:
		ev.pos++
		return ev.args[ev.pos-1] != ""
	case 2:
		return ev.two()
	case 3:
		return ev.three()
	case 4:
		if ev.at(0) == "!" {
			ev.advance(true)
			return !ev.three()
		}
		if ev.at(0) == "(" && ev.at(3) == ")" {
			ev.advance(false)
			v := ev.two()
			ev.advance(false)
			return v
		}
	}
	return ev.expr()
}

func (ev *testEval) two() bool {
	a := ev.at(0)
	switch {
	case a == "!":
		ev.advance(false)
		ev.pos++
		return ev.args[ev.pos-1] == ""
	case len(a) == 2 && a[0] == '-':
		return ev.unary()
	}
	ev.beyond()
	return false
}

func (ev *testEval) three() bool {
	switch {
	case testIsBinary(ev.at(1)):
		return ev.binary()
	case ev.at(0) == "!":
		ev.advance(true)
		return !ev.two()
	case ev.at(0) == "(" && ev.at(2) == ")":
		ev.advance(false)
		v := ev.at(0) != ""
		ev.pos++
		ev.advance(false)
		return v
	case ev.at(1) == "-a" || ev.at(1) == "-o":
		return ev.expr()
	}
	ev.fail(quoteAlways(ev.at(1)) + ": binary operator expected")
	return false
}

func (ev *testEval) expr() bool {
	if ev.pos >= len(ev.args) {
		ev.beyond()
	}
	return ev.or()
}

func (ev *testEval) or() bool {
	v := ev.and()
	for ev.pos < len(ev.args) && ev.at(0) == "-o" {
		ev.advance(false)
		v = ev.and() || v
	}
	return v
}

func (ev *testEval) and() bool {
	v := ev.term()
	for ev.pos < len(ev.args) && ev.at(0) == "-a" {
		ev.advance(false)
		v = ev.term() && v
	}
	return v
}

func (ev *testEval) term() bool {
	if ev.pos >= len(ev.args) {
		ev.beyond()
	}
	invert := false
	for ev.pos < len(ev.args) && ev.at(0) == "!" {
		ev.advance(true)
		invert = !invert
	}
	var v bool
	rest := len(ev.args) - ev.pos
	switch a := ev.at(0); {
	case a == "(":
		if ev.depth >= testMaxNesting {
			ev.fail("expression nested too deeply (limit " + strconv.Itoa(testMaxNesting) + ")")
		}
		ev.depth++
		defer func() { ev.depth-- }()
		ev.advance(true)
		n := 1
		for ev.pos+n < len(ev.args) && ev.at(n) != ")" {
			if n == 4 {
				n = len(ev.args) - ev.pos
				break
			}
			n++
		}
		v = ev.posix(n)
		if ev.pos >= len(ev.args) {
			ev.fail(quoteAlways(")") + " expected")
		}
		if ev.at(0) != ")" {
			ev.fail(quoteAlways(")") + " expected, found " + quoteAlways(ev.at(0)))
		}
		ev.advance(false)
	case rest >= 3 && testIsBinary(ev.at(1)):
		v = ev.binary()
	case len(a) == 2 && a[0] == '-' && a != "--":
		v = ev.unary()
	default:
		v = a != ""
		ev.advance(false)
	}
	return v != invert
}

func testIsBinary(op string) bool {
	switch op {
	case "=", "==", "!=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

func (ev *testEval) binary() bool {
	left, op, right := ev.at(0), ev.at(1), ev.at(2)
	ev.pos += 3
	switch op {
	case "=", "==":
		return left == right
	case "!=":
		return left != right
	case "-nt", "-ot":
		lt, lok := ev.modTime(left)
		rt, rok := ev.modTime(right)
		if op == "-nt" {
			return lok && (!rok || lt.After(rt))
		}
		return rok && (!lok || lt.Before(rt))
	case "-ef":
		l, lerr := ev.e.FS.Resolve(ev.e.Abs(left))
		r, rerr := ev.e.FS.Resolve(ev.e.Abs(right))
		return left != "" && right != "" && lerr == nil && rerr == nil && l == r
	}
	a, b := ev.integer(left), ev.integer(right)
	c := a.Cmp(b)
	switch op {
	case "-eq":
		return c == 0
	case "-ne":
		return c != 0
	case "-lt":
		return c < 0
	case "-le":
		return c <= 0
	case "-gt":
		return c > 0
	}
	return c >= 0
}

// integer parses an integer operand: blanks around, an optional sign.
func (ev *testEval) integer(s string) *big.Int {
	trimmed := strings.Trim(s, " \t\n\v\f\r")
	digits := strings.TrimPrefix(strings.TrimPrefix(trimmed, "-"), "+")
	ok := digits != ""
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			ok = false
		}
	}
	if !ok {
		ev.fail("invalid integer " + quoteAlways(s))
	}
	n, _ := new(big.Int).SetString(strings.TrimPrefix(trimmed, "+"), 10)
	return n
}

func (ev *testEval) modTime(name string) (time.Time, bool) {
	info, err := statOperand(ev.e, name, true)
	if err != nil {
		return time.Time{}, false
	}
	return info.ModTime(), true
}

func (ev *testEval) unary() bool {
	op := ev.at(0)
	if len(op) != 2 || strings.IndexByte(testFileOps+"nzt", op[1]) < 0 {
		ev.fail(quoteAlways(op) + ": unary operator expected")
	}
	ev.advance(true)
	arg := ev.at(0)
	ev.pos++
	switch op[1] {
	case 'n':
		return arg != ""
	case 'z':
		return arg == ""
	case 't':
		return false // a workspace has no terminals
	}
	info, err := statOperand(ev.e, arg, op[1] != 'h' && op[1] != 'L')
	if err != nil {
		return false
	}
	m := info.Mode()
	switch op[1] {
	case 'b':
		return m&fs.ModeDevice != 0 && m&fs.ModeCharDevice == 0
	case 'c':
		return m&fs.ModeCharDevice != 0
	case 'd':
		return m.IsDir()
	case 'e', 'G', 'O', 'r':
		return true // sessions act as root, the owner of every entry
	case 'f':
		return m.IsRegular()
	case 'g':
		return m&fs.ModeSetgid != 0
	case 'h', 'L':
		return m&fs.ModeSymlink != 0
	case 'k':
		return m&fs.ModeSticky != 0
	case 'N':
		return false
	case 'p':
		return m&fs.ModeNamedPipe != 0
	case 's':
		return info.Size() > 0
	case 'S':
		return m&fs.ModeSocket != 0
	case 'u':
		return m&fs.ModeSetuid != 0
	case 'w':
		// A write bit is not enough: a read-only mount or a rule refuses
		// the write, as access(2) would on a read-only filesystem.
		return m.Perm()&0o222 != 0 && ev.e.FS.CheckWrite(ev.e.Abs(arg)) == nil
	case 'x':
		return m.IsDir() || m.Perm()&0o111 != 0
	}
	return false
}
