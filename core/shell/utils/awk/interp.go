package awk

import (
	"bufio"
	"context"
	"io"
	"math/rand"
	"strconv"
	"sync"
	"sync/atomic"

	"gatehouse/core/shell/utils"
)

// cell is one variable: a scalar, or an array once used as one. An
// untyped function argument refers to the caller's cell so that using it
// as an array creates the array in the caller (awk passes arrays by
// reference).
type cell struct {
	v   value
	arr *array
	ref *cell
	// from names the caller's array a parameter refers to, for messages
	// ("a (from b)").
	from string
	// held is what the line's budget was charged for v's string (see
	// holdScalar).
	held int
}

// ctl is how a statement ended.
type ctl uint8

const (
	ctlNone ctl = iota
	ctlBreak
	ctlContinue
	ctlNext
	ctlNextFile
	ctlExit
	ctlReturn
)

// interp runs one program.
type interp struct {
	prog    *program
	env     *utils.Env
	ctx     context.Context
	name    string // the name awk was called by, for messages
	srcs    *sourceMap
	globals []cell
	frame   []cell
	depth   int

	rec   record
	input *recordReader // the main input being read, nil between files
	// argIndex is the next ARGV element to look at.
	argIndex int
	noMoreIn bool

	out     *bufio.Writer
	stdout  *lockedWriter
	streams map[string]*outStream
	readers map[string]*inStream
	recent  []string // open redirections, most recently used first

	ranges   []bool
	exitCode int
	ret      value
	curPos   int // position of the running statement, for messages
	inEnd    bool
	inBegin  bool
	steps    int

	rnd      *rand.Rand
	seed     float64
	reCache  map[string]*regex
	convfmt  string
	ofmt     string
	subsep   string
	memUsed  int64
	memLimit int64

	stderr   *lockedWriter
	stdin    *recordReader
	rs       rsConfig
	ors      string
	ofs      string
	usedFile bool
	endDone  bool
	halt     error
	haltMu   sync.Mutex
	halted   atomic.Bool
	closing  bool // closeAllQuietly is ending every stream after a stop
}

// fatal stops the program with gawk's "fatal:" message.
func (in *interp) fatal(msg string) {
	panic(&fatalError{msg: msg})
}

// where is the "cmd. line:N:" prefix with the record context gawk adds.
func (in *interp) where() string {
	s := in.name + ": "
	if in.curPos >= 0 {
		s += in.srcs.where(in.curPos) + ": "
	}
	if in.rec.fnr > 0 {
		s += "(FILENAME=" + in.filename() + " FNR=" + strconv.Itoa(in.rec.fnr) + ") "
	}
	return s
}

// warn prints a gawk warning on stderr.
func (in *interp) warn(msg string) {
	in.out.Flush()
	io.WriteString(in.stderr, in.where()+"warning: "+msg+"\n")
}

func (in *interp) filename() string {
	return in.toStr(in.globals[idxFILENAME].v)
}

// tick counts work and checks the line's context now and then, so an
// endless loop stops at the wall time.
func (in *interp) tick() {
	in.steps++
	if in.steps&1023 == 0 {
		in.checkHalt()
		if err := in.ctx.Err(); err != nil {
			panic(errCancelled{err})
		}
	}
}

// checkCtx stops awk at once if the line has ended (between the searches
// of a long gsub).
func (in *interp) checkCtx() {
	if err := in.ctx.Err(); err != nil {
		panic(errCancelled{err})
	}
}

// errCancelled carries the context's end out of the interpreter.
type errCancelled struct{ err error }

// execBlock runs a list of statements.
func (in *interp) execBlock(b *blockStmt) ctl {
	for _, s := range b.list {
		if c := in.exec(s); c != ctlNone {
			return c
		}
	}
	return ctlNone
}

// exec runs one statement.
func (in *interp) exec(s stmt) ctl {
	switch s := s.(type) {
	case *exprStmt:
		in.curPos = s.pos
		in.eval(s.e)
	case *printStmt:
		in.curPos = s.pos
		in.print(s)
	case *blockStmt:
		return in.execBlock(s)
	case *ifStmt:
		in.curPos = s.pos
		if in.cond(s.cond) {
			return in.exec(s.yes)
		} else if s.no != nil {
			return in.exec(s.no)
		}
	case *whileStmt:
		return in.execWhile(s)
	case *doStmt:
		return in.execDo(s)
	case *forStmt:
		return in.execFor(s)
	case *forInStmt:
		return in.execForIn(s)
	case *nextStmt:
		in.curPos = s.pos
		return ctlNext
	case *nextfileStmt:
		in.curPos = s.pos
		return ctlNextFile
	case *breakStmt:
		return ctlBreak
	case *continueStmt:
		return ctlContinue
	case *exitStmt:
		in.curPos = s.pos
		if s.e != nil {
			in.exitCode = int(int32(int64(in.eval(s.e).toNum())))
		}
		return ctlExit
	case *returnStmt:
		in.curPos = s.pos
		in.ret = value{}
		if s.e != nil {
			in.ret = in.evalReturn(s.e)
		}
		return ctlReturn
	case *deleteStmt:
		in.curPos = s.pos
		in.execDelete(s)
	case *switchStmt:
		return in.execSwitch(s)
	}
	return ctlNone
}

// loopCtl turns a body's ending into the loop's: done says leave the loop.
func loopCtl(c ctl) (out ctl, done bool) {
	switch c {
	case ctlBreak:
		return ctlNone, true
	case ctlContinue, ctlNone:
		return ctlNone, false
	}
	return c, true
}

func (in *interp) execWhile(s *whileStmt) ctl {
	for {
		in.curPos = s.pos
		if !in.cond(s.cond) {
			return ctlNone
		}
		in.tick()
		if c, done := loopCtl(in.exec(s.body)); done {
			return c
		}
	}
}

func (in *interp) execDo(s *doStmt) ctl {
	for {
		in.tick()
		if c, done := loopCtl(in.exec(s.body)); done {
			return c
		}
		in.curPos = s.pos
		if !in.cond(s.cond) {
			return ctlNone
		}
	}
}

func (in *interp) execFor(s *forStmt) ctl {
	in.curPos = s.pos
	if s.init != nil {
		in.exec(s.init)
	}
	for {
		in.curPos = s.pos
		if s.cond != nil && !in.cond(s.cond) {
			return ctlNone
		}
		in.tick()
		if c, done := loopCtl(in.exec(s.body)); done {
			return c
		}
		if s.post != nil {
			in.exec(s.post)
		}
	}
}

func (in *interp) execForIn(s *forInStmt) ctl {
	in.curPos = s.pos
	// gawk walks a snapshot: elements deleted by the body are still visited.
	arr := in.array(s.arr)
	keys := arr.keys()
	if how, ok := in.globals[idxPROCINFO].arr.get("sorted_in"); ok {
		in.sortKeys(arr, keys, in.toStr(*how))
	}
	for _, k := range keys {
		in.tick()
		in.assign(s.key, maybe(k))
		if c, done := loopCtl(in.exec(s.body)); done {
			return c
		}
	}
	return ctlNone
}

func (in *interp) execDelete(s *deleteStmt) {
	arr := in.array(s.arr)
	if s.subs == nil {
		in.clearArray(arr)
		return
	}
	in.removeElem(arr, in.subscript(s.subs))
}

// execSwitch runs gawk's switch: the first case that matches (or else
// default, wherever it stands) and the cases after it until a break.
func (in *interp) execSwitch(s *switchStmt) ctl {
	in.curPos = s.pos
	v := in.eval(s.e)
	start := -1
	for i, c := range s.cases {
		switch m := c.match.(type) {
		case nil:
			continue
		case *regexExpr:
			if m.re.MatchString(in.toStr(v)) {
				start = i
			}
		default:
			if in.compare(v, in.eval(m)) == 0 {
				start = i
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		for i, c := range s.cases {
			if c.match == nil {
				start = i
			}
		}
	}
	if start < 0 {
		return ctlNone
	}
	for _, c := range s.cases[start:] {
		for _, st := range c.body {
			switch r := in.exec(st); r {
			case ctlNone:
			case ctlBreak:
				return ctlNone
			default:
				return r
			}
		}
	}
	return ctlNone
}

// cond evaluates a condition.
func (in *interp) cond(e expr) bool {
	if re, ok := e.(*regexExpr); ok {
		return re.re.MatchString(in.rec.get0(in))
	}
	return in.eval(e).isTrue()
}
