package awk

import (
	"bufio"
	"context"
	"io"
	"math/rand"
	"strconv"
	"strings"

	"gatehouse/core/shell/utils"
)

func newInterp(e *utils.Env, name string, prog *program, srcs *sourceMap, stderr io.Writer) *interp {
	ctx := e.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	stdout := e.Stdout
	if stdout == nil {
		stdout = io.Discard
	}
	in := &interp{
		prog: prog, env: e, ctx: ctx, name: name, srcs: srcs,
		globals:  make([]cell, len(prog.globals)),
		streams:  map[string]*outStream{},
		readers:  map[string]*inStream{},
		ranges:   make([]bool, len(prog.rules)),
		reCache:  map[string]*regex{},
		memLimit: memoryBudget.Load(),
		curPos:   -1,
		stdout:   &lockedWriter{w: stdout},
		stderr:   &lockedWriter{w: stderr},
		convfmt:  "%.6g", ofmt: "%.6g", subsep: "\x1c", ofs: " ", ors: "\n",
	}
	in.out = bufio.NewWriterSize(in.stdout, 64*1024)
	in.seed = 1 // gawk's srand() returns 1 before any seed was set
	in.reseed()
	return in
}

// setup gives the special variables their initial values, then applies
// -F and -v, as gawk does before BEGIN.
func (in *interp) setup(c *config) {
	g := in.globals
	g[idxFS].v = str(" ")
	g[idxOFS].v = str(" ")
	g[idxORS].v = str("\n")
	g[idxRS].v = str("\n")
	g[idxSUBSEP].v = str("\x1c")
	g[idxCONVFMT].v = str("%.6g")
	g[idxOFMT].v = str("%.6g")
	g[idxRSTART].v = num(0)
	g[idxRLENGTH].v = num(-1)
	g[idxFILENAME].v = str("")
	g[idxRT].v = str("")
	g[idxERRNO].v = str("")
	g[idxIGNORECASE].v = num(0)
	in.rs = rsConfig{mode: rsChar, c: '\n'}
	in.rec.sp = splitter{mode: fsSpace}
	in.rec.grow = in.growFields(nil)
	env := newArray()
	for _, kv := range in.env.Environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			in.put(env, k, maybe(v))
		}
	}
	g[idxENVIRON].arr = env
	argv := newArray()
	in.put(argv, "0", str(in.name))
	for i, op := range c.operands {
		in.put(argv, strconv.Itoa(i+1), maybe(op))
	}
	g[idxARGV].arr = argv
	g[idxARGC].v = num(float64(len(c.operands) + 1))
	proc := newArray()
	for _, kv := range [][2]string{{"version", "5.2.1"}, {"api_major", "3"}, {"api_minor", "2"}, {"FS", "FS"}, {"strftime", "%a %b %e %H:%M:%S %Z %Y"}} {
		in.put(proc, kv[0], str(kv[1]))
	}
	g[idxPROCINFO].arr = proc
	in.argIndex = 1
	if c.fs != nil {
		fs := *c.fs
		in.setSpecial(idxFS, str(processEscapes(fs)))
	}
	for _, a := range c.assigns {
		name, val, ok := strings.Cut(a, "=")
		if !ok || !validName(name) {
			in.fatal("`" + name + "' is not a legal variable name")
		}
		if _, isFunc := in.prog.funcs[name]; isFunc {
			in.fatal("cannot use function `" + name + "' as variable name")
		}
		in.assignByName(name, maybe(processEscapes(val)))
	}
}

func validName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameChar(s[i]) {
			return false
		}
	}
	_, kw := keywords.Get()[s]
	_, bi := builtinNames.Get()[s]
	return !kw && !bi
}

// readSpecial reads a special variable; NF splits the record first.
func (in *interp) readSpecial(idx int) value {
	switch idx {
	case idxNF:
		return num(float64(in.rec.numFields()))
	case idxNR:
		return num(float64(in.rec.nr))
	case idxFNR:
		return num(float64(in.rec.fnr))
	}
	return in.globals[idx].v
}

// setSpecial assigns a special variable and updates what depends on it.
func (in *interp) setSpecial(idx int, v value) {
	c := &in.globals[idx]
	if c.arr != nil {
		in.fatal("attempt to use array `" + specialNames[idx] + "' in a scalar context")
	}
	c.v = v
	switch idx {
	case idxNF:
		n := v.toNum()
		if n < 0 {
			in.fatal("NF set to negative value")
		}
		if n > 1e7 {
			in.fatal("NF set to too large a value")
		}
		in.rec.setNF(int(n))
	case idxNR:
		in.rec.nr = int(v.toNum())
	case idxFNR:
		in.rec.fnr = int(v.toNum())
	case idxFS:
		in.rec.ensureSplit() // the current record keeps the old FS
		in.resetSplitter()
	case idxRS:
		rs, err := newRSConfig(in.toStr(v))
		if err != nil {
			in.fatal("invalid regexp: " + err.Error())
		}
		in.rs = rs
		in.rec.ensureSplit()
		in.resetSplitter()
	case idxOFS:
		in.ofs = in.toStr(v)
	case idxORS:
		in.ors = in.toStr(v)
	case idxSUBSEP:
		in.subsep = in.toStr(v)
	case idxCONVFMT:
		in.convfmt = in.toStr(v)
	case idxOFMT:
		in.ofmt = in.toStr(v)
	}
}

func (in *interp) resetSplitter() {
	sp, err := newSplitter(in.toStr(in.globals[idxFS].v), in.rs.mode == rsParagraph)
	if err != nil {
		in.fatal("invalid regexp: " + err.Error())
	}
	in.rec.sp = sp
}

// print runs print and printf, with their redirections.
func (in *interp) print(s *printStmt) {
	if s.printf && len(s.args) == 0 {
		in.fatal("printf: no arguments")
	}
	if s.redir == 0 {
		in.printTo(in.out, s)
		in.checkOutput()
		return
	}
	// The arguments are evaluated before the destination, as in gawk.
	var text string
	if s.printf {
		text = in.sprintf(s.args)
	} else {
		var b strings.Builder
		in.printList(&b, s.args)
		text = b.String()
	}
	os := in.output(s.redir, in.evalStr(s.dest))
	os.w.WriteString(text)
	if os.unbuffered {
		os.w.Flush()
	}
}

// printTo writes one print or printf straight to w.
func (in *interp) printTo(w *bufio.Writer, s *printStmt) {
	if s.printf {
		w.WriteString(in.sprintf(s.args))
		return
	}
	in.printList(w, s.args)
}

// printList writes print's arguments joined by OFS and ended by ORS;
// no arguments print $0.
func (in *interp) printList(w io.StringWriter, args []expr) {
	if len(args) == 0 {
		w.WriteString(in.rec.get0(in))
		w.WriteString(in.ors)
		return
	}
	// Every argument is evaluated before anything is written: one may
	// print itself (a function, system()).
	var small [8]string
	parts := small[:0]
	for _, a := range args {
		parts = append(parts, in.toOutStr(in.eval(a)))
	}
	for i, p := range parts {
		if i > 0 {
			w.WriteString(in.ofs)
		}
		w.WriteString(p)
	}
	w.WriteString(in.ors)
}

// checkOutput stops awk when its standard output is gone.
func (in *interp) checkOutput() {
	if _, err := in.out.Write(nil); err != nil {
		panic(errOutput{})
	}
}

// getline reads a record into $0 or a variable; it returns 1, 0 at the
// end, or -1 when the source cannot be read.
func (in *interp) getline(g *getlineExpr) value {
	// The variable's subscript or field number is evaluated before the
	// read, even when nothing is read (`getline a[++n] < f`).
	lhs := in.resolveLvalue(g.lhs)
	if g.mode == getPlain {
		line, ok := in.nextRecord()
		if !ok {
			return num(0)
		}
		if lhs == nil {
			in.rec.set0(line)
		} else {
			in.assign(lhs, maybe(line))
		}
		return num(1)
	}
	name := in.evalStr(g.src)
	if name == "" {
		op := "<"
		if g.mode == getCmd {
			op = "|"
		}
		in.fatal("expression for `" + op + "' redirection has null string value")
	}
	s := in.getlineSource(g.mode, name)
	if s.failed {
		return num(-1)
	}
	line, rt, ok := s.rr.read(&in.rs)
	if !ok && g.mode == getCmd {
		// The command has ended: if it stopped the line, so does awk.
		s.closeFn()
	}
	if !ok {
		if s.rr.err != nil {
			return num(-1)
		}
		return num(0)
	}
	in.globals[idxRT].v = str(rt)
	if lhs == nil {
		in.rec.set0(line)
	} else {
		in.assign(lhs, maybe(line))
	}
	return num(1)
}

// resolveLvalue evaluates the subscripts or field number of an lvalue
// now, returning an equivalent lvalue with constant parts.
func (in *interp) resolveLvalue(e expr) expr {
	switch l := e.(type) {
	case *indexExpr:
		return &indexExpr{arr: l.arr, subs: []expr{&strExpr{str(in.subscript(l.subs))}}}
	case *fieldExpr:
		return &fieldExpr{index: l.index, fixed: in.fieldIndex(l)}
	}
	return e
}

// grow accounts memory kept in arrays, against awk's own budget and the
// line's (utils.Env.Grow, G-12.3); release returns it.
func (in *interp) grow(n int) {
	in.memUsed += int64(n)
	if in.memUsed > in.memLimit {
		in.fatal("memory budget of " + strconv.Itoa(int(in.memLimit>>20)) + " MiB exhausted")
	}
	if in.env != nil && in.env.Grow(int64(n)) != nil {
		in.fatal("the line's memory budget is exhausted")
	}
}

func (in *interp) release(n int) {
	in.memUsed -= int64(n)
	if in.env != nil {
		in.env.Grow(-int64(n))
	}
}

// checkString refuses a string longer than the memory budget, awk's own
// or what the line may still hold (G-12.3): a string is not kept in an
// account, but one larger than the line's room ends the line.
func (in *interp) checkString(n int) {
	if int64(n) > in.memLimit/2 {
		in.fatal("string of " + strconv.Itoa(n) + " bytes exceeds the memory budget")
	}
	if n >= 1<<20 && in.env != nil {
		if in.env.Grow(int64(n)) != nil {
			in.fatal("the line's memory budget is exhausted")
		}
		in.env.Grow(-int64(n))
	}
}

// reseed restarts the random generator from the current seed.
func (in *interp) reseed() {
	in.rnd = rand.New(rand.NewSource(int64(in.seed)))
}

func (in *interp) random() float64 {
	return in.rnd.Float64()
}
