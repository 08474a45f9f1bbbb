package awk

// literalPath is a file the program names with a constant string:
// `print > "out.txt"`, `getline line < "in.txt"`.
type literalPath struct {
	path  string
	write bool
}

// literalPaths lists the files a program names literally, so the gate can
// judge them before the line runs like any other operand (G-4.9). Paths
// computed at run time are judged by the op door when opened.
func literalPaths(prog *program) []literalPath {
	w := &pathWalker{}
	for _, b := range prog.begins {
		w.stmt(b)
	}
	for _, r := range prog.rules {
		w.expr(r.pattern)
		w.expr(r.pattern2)
		if r.body != nil {
			w.stmt(r.body)
		}
	}
	for _, list := range [][]*blockStmt{prog.ends, prog.beginFiles, prog.endFiles} {
		for _, b := range list {
			w.stmt(b)
		}
	}
	for _, fn := range prog.funcs {
		w.stmt(fn.body)
	}
	return w.paths
}

type pathWalker struct {
	paths []literalPath
	depth int
}

// add records a constant destination that names a real file.
func (w *pathWalker) add(e expr, write bool) {
	s, ok := e.(*strExpr)
	if !ok {
		if p, isParen := e.(*parenExpr); isParen {
			w.add(p.e, write)
		}
		return
	}
	switch s.v.s {
	case "", "-", "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return
	}
	w.paths = append(w.paths, literalPath{path: s.v.s, write: write})
}

func (w *pathWalker) stmt(s stmt) {
	switch s := s.(type) {
	case *blockStmt:
		for _, st := range s.list {
			w.stmt(st)
		}
	case *printStmt:
		w.exprs(s.args)
		if s.redir == tGT || s.redir == tAppend {
			w.add(s.dest, true)
		}
		w.expr(s.dest)
	case *exprStmt:
		w.expr(s.e)
	case *ifStmt:
		w.expr(s.cond)
		w.stmt(s.yes)
		w.stmt(s.no)
	case *whileStmt:
		w.expr(s.cond)
		w.stmt(s.body)
	case *doStmt:
		w.stmt(s.body)
		w.expr(s.cond)
	case *forStmt:
		w.stmt(s.init)
		w.expr(s.cond)
		w.stmt(s.post)
		w.stmt(s.body)
	case *forInStmt:
		w.stmt(s.body)
	case *exitStmt:
		w.expr(s.e)
	case *returnStmt:
		w.expr(s.e)
	case *deleteStmt:
		w.exprs(s.subs)
	case *switchStmt:
		w.expr(s.e)
		for _, c := range s.cases {
			for _, st := range c.body {
				w.stmt(st)
			}
		}
	}
}

func (w *pathWalker) exprs(list []expr) {
	for _, e := range list {
		w.expr(e)
	}
}

func (w *pathWalker) expr(e expr) {
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > maxParseDepth*2 {
		return
	}
	switch e := e.(type) {
	case *getlineExpr:
		if e.mode == getFile {
			w.add(e.src, false)
		}
		w.expr(e.src)
		w.expr(e.lhs)
	case *fieldExpr:
		w.expr(e.index)
	case *indexExpr:
		w.exprs(e.subs)
	case *assignExpr:
		w.expr(e.lhs)
		w.expr(e.rhs)
	case *condExpr:
		w.expr(e.cond)
		w.expr(e.yes)
		w.expr(e.no)
	case *binaryExpr:
		w.expr(e.l)
		w.expr(e.r)
	case *concatExpr:
		w.exprs(e.parts)
	case *unaryExpr:
		w.expr(e.e)
	case *incDecExpr:
		w.expr(e.lhs)
	case *matchExpr:
		w.expr(e.l)
		w.expr(e.re)
	case *inExpr:
		w.exprs(e.subs)
	case *groupExpr:
		w.exprs(e.list)
	case *parenExpr:
		w.expr(e.e)
	case *callExpr:
		w.exprs(e.args)
	case *builtinExpr:
		w.exprs(e.args)
	}
}
