package awk

import "gatehouse/internal/lazy"

// builtin names a built-in function.
type builtin int

const (
	bLength builtin = iota
	bSubstr
	bIndex
	bSplit
	bSub
	bGsub
	bGensub
	bMatch
	bSprintf
	bSin
	bCos
	bAtan2
	bExp
	bLog
	bSqrt
	bInt
	bRand
	bSrand
	bTolower
	bToupper
	bSystem
	bClose
	bFflush
	bSystime
	bStrftime
	bMktime
	bAsort
	bAsorti
	bAnd
	bOr
	bXor
	bLshift
	bRshift
	bCompl
	bStrtonum
	bIsarray
	bTypeof
)

var builtinNames = lazy.Value[map[string]builtin]{New: func() map[string]builtin {
	return map[string]builtin{
		"length": bLength, "substr": bSubstr, "index": bIndex, "split": bSplit,
		"sub": bSub, "gsub": bGsub, "gensub": bGensub, "match": bMatch,
		"sprintf": bSprintf, "sin": bSin, "cos": bCos, "atan2": bAtan2,
		"exp": bExp, "log": bLog, "sqrt": bSqrt, "int": bInt, "rand": bRand,
		"srand": bSrand, "tolower": bTolower, "toupper": bToupper,
		"system": bSystem, "close": bClose, "fflush": bFflush,
		"systime": bSystime, "strftime": bStrftime, "mktime": bMktime,
		"asort": bAsort, "asorti": bAsorti, "and": bAnd, "or": bOr, "xor": bXor,
		"lshift": bLshift, "rshift": bRshift, "compl": bCompl,
		"strtonum": bStrtonum, "isarray": bIsarray, "typeof": bTypeof,
	}
}}

// arity is a builtin's allowed argument counts; max -1 means any.
var arity = lazy.Value[map[builtin][2]int]{New: func() map[builtin][2]int {
	return map[builtin][2]int{
		bLength: {0, 1}, bSubstr: {2, 3}, bIndex: {2, 2}, bSplit: {2, 4},
		bSub: {2, 3}, bGsub: {2, 3}, bGensub: {3, 4}, bMatch: {2, 3},
		bSprintf: {1, -1}, bSin: {1, 1}, bCos: {1, 1}, bAtan2: {2, 2},
		bExp: {1, 1}, bLog: {1, 1}, bSqrt: {1, 1}, bInt: {1, 1}, bRand: {0, 0},
		bSrand: {0, 1}, bTolower: {1, 1}, bToupper: {1, 1}, bSystem: {1, 1},
		bClose: {1, 2}, bFflush: {0, 1}, bSystime: {0, 0}, bStrftime: {0, 3},
		bMktime: {1, 2}, bAsort: {1, 3}, bAsorti: {1, 3}, bAnd: {2, -1},
		bOr: {2, -1}, bXor: {2, -1}, bLshift: {2, 2}, bRshift: {2, 2},
		bCompl: {1, 1}, bStrtonum: {1, 1}, bIsarray: {1, 1}, bTypeof: {1, 2},
	}
}}

// arrayArgs lists, per builtin, the argument positions that name arrays.
var arrayArgs = lazy.Value[map[builtin][]int]{New: func() map[builtin][]int {
	return map[builtin][]int{
		bSplit: {1, 3}, bMatch: {2}, bAsort: {0, 1}, bAsorti: {0, 1},
	}
}}

// builtinCall parses a call of a built-in function. `length` alone is
// length($0).
func (p *parser) builtinCall() expr {
	t := p.tok
	fn := builtinNames.Get()[t.text]
	p.advance()
	call := &builtinExpr{fn: fn, pos: t.pos}
	if p.tok.kind != tLparen {
		if fn == bLength {
			return call
		}
		p.fail("syntax error")
	}
	p.advance()
	savedGT, savedIn := p.noGT, p.noIn
	p.noGT, p.noIn = false, false
	for i := 0; p.tok.kind != tRparen; i++ {
		call.args = append(call.args, p.builtinArg(fn, i))
		if p.tok.kind == tComma {
			p.advance()
			p.optNewlines()
			continue
		}
		if p.tok.kind != tRparen {
			p.fail("syntax error")
		}
	}
	p.noGT, p.noIn = savedGT, savedIn
	if a := arity.Get()[fn]; len(call.args) < a[0] || a[1] >= 0 && len(call.args) > a[1] {
		p.arityError(len(call.args), t.text)
	}
	if (fn == bSub || fn == bGsub) && len(call.args) == 3 && !isLvalue(call.args[2]) {
		p.fail(t.text + " third parameter is not a changeable object")
	}
	p.advance()
	return call
}

// builtinArg parses one argument; array positions take a bare name.
func (p *parser) builtinArg(fn builtin, i int) expr {
	for _, ai := range arrayArgs.Get()[fn] {
		if ai == i && p.tok.kind == tName {
			snap := p.save()
			name := p.tok.text
			p.advance()
			if p.tok.kind == tComma || p.tok.kind == tRparen {
				return p.varRef(name)
			}
			p.restore(snap)
		}
	}
	return p.expr()
}
