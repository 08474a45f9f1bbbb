package utils

import (
	"cmp"
	"math/big"
	"regexp"
	"strings"
	"unicode/utf8"
)

const exprHelp = `Usage: expr EXPRESSION
  or:  expr OPTION

      --help        display this help and exit
      --version     output version information and exit

Print the value of EXPRESSION to standard output.  Operators, loosest first:
  ARG1 | ARG2       ARG1 if it is neither null nor 0, otherwise ARG2
  ARG1 & ARG2       ARG1 if neither argument is null or 0, otherwise 0
  ARG1 < ARG2 (also <=, =, ==, !=, >=, >)
                    1 if the comparison holds (numeric when both are
                    integers, else as strings), otherwise 0
  ARG1 + ARG2, ARG1 - ARG2, ARG1 * ARG2, ARG1 / ARG2, ARG1 % ARG2
  STRING : REGEXP   anchored match: the \(group\) or the matched length
  match STRING REGEXP, substr STRING POS LENGTH, index STRING CHARS,
  length STRING, + TOKEN (TOKEN as a string), ( EXPRESSION )

Exit status is 0 if EXPRESSION is neither null nor 0, 1 if it is null or
0, 2 if it is invalid, 3 if an error occurred.
`

// exprUtility makes the expr utility (see builtins).
func exprUtility(string) *Utility {
	return &Utility{Name: "expr", Run: runExpr, Help: exprHelp}
}

// exprError is a failure with expr's status (2 syntax, 3 other).
type exprError struct {
	msg    string
	status int
}

// exprParser evaluates expr's argument list by recursive descent.
type exprParser struct {
	args []string
	pos  int
}

func runExpr(e *Env) (int, error) {
	t := newTool(e, "expr", exprHelp, 2)
	args := e.Args[1:]
	if len(args) == 1 {
		switch args[0] {
		case "--help":
			t.writeString(exprHelp)
			return t.end(0)
		case "--version":
			t.writeString("expr (GNU coreutils) 9.1\n")
			return t.end(0)
		}
	}
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		return t.end(t.usage("missing operand"))
	}
	p := &exprParser{args: args}
	v, err := p.or()
	if err == nil && p.pos < len(p.args) {
		err = &exprError{"syntax error: unexpected argument '" + p.args[p.pos] + "'", 2}
	}
	if err != nil {
		t.warn(err.msg)
		return t.end(err.status)
	}
	t.writeString(v + "\n")
	if exprNull(v) {
		return t.end(1)
	}
	return t.end(0)
}

// exprNull is expr's falsity: the empty string or an integer zero (told
// from its digits: a long one is not converted).
func exprNull(v string) bool {
	return v == "" || exprIsInt(v) && strings.Trim(strings.TrimPrefix(v, "-"), "0") == ""
}

// exprIsInt reports an integer argument (optional sign, digits only).
func exprIsInt(s string) bool {
	body := strings.TrimPrefix(s, "-")
	return body != "" && strings.Trim(body, "0123456789") == ""
}

// exprMaxDigits bounds the integers expr computes with: one argument of
// GNU's expr cannot be longer (Linux's MAX_ARG_STRLEN), and converting a
// decimal number takes time quadratic in its length (ten million digits
// ran for minutes past the line's end, G-12.3).
const exprMaxDigits = 1 << 17

// exprInt reads an integer argument; false when it is not one, or has
// more than exprMaxDigits digits.
func exprInt(s string) (*big.Int, bool) {
	if !exprIsInt(s) || len(s) > exprMaxDigits+1 {
		return nil, false
	}
	n, ok := new(big.Int).SetString(s, 10)
	return n, ok
}

// exprCmpInt compares two integer arguments by their digits, however long.
func exprCmpInt(a, b string) int {
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	a = strings.TrimLeft(strings.TrimPrefix(a, "-"), "0")
	b = strings.TrimLeft(strings.TrimPrefix(b, "-"), "0")
	na, nb = na && a != "", nb && b != "" // -0 is 0
	if na != nb {
		if na {
			return -1
		}
		return 1
	}
	c := cmp.Compare(len(a), len(b))
	if c == 0 {
		c = strings.Compare(a, b)
	}
	if na {
		return -c
	}
	return c
}

func (p *exprParser) peek() (string, bool) {
	if p.pos < len(p.args) {
		return p.args[p.pos], true
	}
	return "", false
}

// operand reads the argument after an operator or keyword.
func (p *exprParser) operand(after string) (string, *exprError) {
	if p.pos >= len(p.args) {
		return "", &exprError{"syntax error: missing argument after '" + after + "'", 2}
	}
	p.pos++
	return p.args[p.pos-1], nil
}

// binary parses a left-associative level of operators.
func (p *exprParser) binary(ops []string, next func() (string, *exprError), apply func(op, a, b string) (string, *exprError)) (string, *exprError) {
	v, err := next()
	if err != nil {
		return "", err
	}
	for {
		tok, ok := p.peek()
		found := false
		for _, op := range ops {
			if ok && tok == op {
				found = true
			}
		}
		if !found {
			return v, nil
		}
		p.pos++
		if p.pos >= len(p.args) {
			return "", &exprError{"syntax error: missing argument after '" + tok + "'", 2}
		}
		w, err := next()
		if err != nil {
			return "", err
		}
		if v, err = apply(tok, v, w); err != nil {
			return "", err
		}
	}
}

func (p *exprParser) or() (string, *exprError) {
	return p.binary([]string{"|"}, p.and, func(_, a, b string) (string, *exprError) {
		if !exprNull(a) {
			return a, nil
		}
		if !exprNull(b) {
			return b, nil
		}
		return "0", nil
	})
}

func (p *exprParser) and() (string, *exprError) {
	return p.binary([]string{"&"}, p.compare, func(_, a, b string) (string, *exprError) {
		if exprNull(a) || exprNull(b) {
			return "0", nil
		}
		return a, nil
	})
}

func (p *exprParser) compare() (string, *exprError) {
	return p.binary([]string{"<", "<=", "=", "==", "!=", ">=", ">"}, p.sum, func(op, a, b string) (string, *exprError) {
		c := strings.Compare(a, b)
		if exprIsInt(a) && exprIsInt(b) {
			c = exprCmpInt(a, b)
		}
		holds := map[string]bool{"<": c < 0, "<=": c <= 0, "=": c == 0, "==": c == 0, "!=": c != 0, ">=": c >= 0, ">": c > 0}[op]
		if holds {
			return "1", nil
		}
		return "0", nil
	})
}

func (p *exprParser) sum() (string, *exprError) {
	return p.binary([]string{"+", "-"}, p.product, exprArith)
}

func (p *exprParser) product() (string, *exprError) {
	return p.binary([]string{"*", "/", "%"}, p.match, exprArith)
}

// exprArith applies an arithmetic operator to two integers.
func exprArith(op, a, b string) (string, *exprError) {
	if !exprIsInt(a) || !exprIsInt(b) {
		return "", &exprError{"non-integer argument", 2}
	}
	// Past exprMaxDigits, an operand or a result (a product has at most
	// as many digits as its factors together) is out of range, as an
	// overflow was for expr before it used GMP.
	x, ok1 := exprInt(a)
	y, ok2 := exprInt(b)
	if !ok1 || !ok2 || op == "*" && len(a)+len(b) > exprMaxDigits+2 {
		return "", &exprError{op + ": Numerical result out of range", 3}
	}
	r := new(big.Int)
	switch op {
	case "+":
		r.Add(x, y)
	case "-":
		r.Sub(x, y)
	case "*":
		r.Mul(x, y)
	case "/", "%":
		if y.Sign() == 0 {
			return "", &exprError{"division by zero", 2}
		}
		if op == "/" {
			r.Quo(x, y)
		} else {
			r.Rem(x, y)
		}
	}
	return r.String(), nil
}

func (p *exprParser) match() (string, *exprError) {
	return p.binary([]string{":"}, p.primary, func(_, s, re string) (string, *exprError) {
		return exprMatch(s, re)
	})
}

// exprMatch is STRING : REGEXP, a BRE anchored at the start.
func exprMatch(s, pattern string) (string, *exprError) {
	translated, err := TranslateRegex(pattern, RegexOptions{Dialect: BasicRegex})
	if err != nil {
		return "", &exprError{err.Error(), 2}
	}
	re, cerr := regexp.Compile("^(?:" + translated + ")")
	if cerr != nil {
		return "", &exprError{"Invalid regular expression", 2}
	}
	re.Longest()
	m := re.FindStringSubmatchIndex(s)
	if re.NumSubexp() > 0 {
		if m == nil || m[2] < 0 {
			return "", nil
		}
		return s[m[2]:m[3]], nil
	}
	if m == nil {
		return "0", nil
	}
	return itoaInt(utf8.RuneCountInString(s[:m[1]])), nil
}

func itoaInt(n int) string { return big.NewInt(int64(n)).String() }

// primary reads a keyword form, a parenthesised expression or an argument.
func (p *exprParser) primary() (string, *exprError) {
	tok, ok := p.peek()
	if !ok {
		return "", &exprError{"syntax error: missing argument after '" + p.args[len(p.args)-1] + "'", 2}
	}
	p.pos++
	switch tok {
	case "(":
		v, err := p.or()
		if err != nil {
			return "", err
		}
		if next, ok := p.peek(); !ok || next != ")" {
			if !ok {
				return "", &exprError{"syntax error: expecting ')' after '" + p.args[p.pos-1] + "'", 2}
			}
			return "", &exprError{"syntax error: expecting ')' instead of '" + next + "'", 2}
		}
		p.pos++
		return v, nil
	case "+":
		return p.operand(tok)
	case "length", "match", "substr", "index":
		return p.keyword(tok)
	}
	return tok, nil
}

// keyword evaluates length, match, substr and index.
func (p *exprParser) keyword(kw string) (string, *exprError) {
	n := map[string]int{"length": 1, "match": 2, "index": 2, "substr": 3}[kw]
	vals := make([]string, n)
	after := kw
	for i := range vals {
		v, err := p.operand(after)
		if err != nil {
			return "", err
		}
		vals[i], after = v, v
	}
	switch kw {
	case "length":
		return itoaInt(utf8.RuneCountInString(vals[0])), nil
	case "match":
		return exprMatch(vals[0], vals[1])
	case "index":
		for i, r := range vals[0] {
			if strings.ContainsRune(vals[1], r) {
				return itoaInt(utf8.RuneCountInString(vals[0][:i]) + 1), nil
			}
		}
		return "0", nil
	}
	pos, ok1 := exprInt(vals[1])
	length, ok2 := exprInt(vals[2])
	runes := []rune(vals[0])
	if !ok1 || !ok2 || pos.Sign() <= 0 || length.Sign() <= 0 || pos.Int64() > int64(len(runes)) {
		return "", nil
	}
	start := pos.Int64() - 1
	end := min(start+length.Int64(), int64(len(runes)))
	return string(runes[start:end]), nil
}
