package utils

// find's actions (but -exec and its kin, in find_primaries.go) and the
// tests that steer the walk.

// printAction parses -print, -print0, -printf FORMAT, -ls and -delete.
func (p *findParser) printAction(tok string) findNode {
	p.sawAction = true
	switch tok {
	case "-printf":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		return findPred(func(r *findRun, f *findFile) bool {
			out, charged, err := r.printf(v, f)
			if err != nil {
				r.quit = true // the line's memory budget is spent: it is ending
				return false
			}
			r.t.writeString(out)
			r.t.env.Grow(-charged)
			return true
		})
	case "-ls":
		return findPred(func(r *findRun, f *findFile) bool {
			r.t.writeString(r.lsLine(f))
			return true
		})
	case "-delete":
		p.run.depthFirst = true
		return findPred(func(r *findRun, f *findFile) bool { return r.delete(f) })
	}
	end := byte('\n')
	if tok == "-print0" {
		end = 0
	}
	return findPred(func(r *findRun, f *findFile) bool {
		f.writeShown(r.t, end)
		return true
	})
}

// findPrune is -prune: do not descend into this directory (without -depth).
func findPrune() findNode {
	return findPred(func(r *findRun, f *findFile) bool {
		if !r.depthFirst {
			f.pruned = true
		}
		return true
	})
}

// findQuit is -quit: stop the walk.
func findQuit() findNode {
	return findPred(func(r *findRun, f *findFile) bool {
		r.quit = true
		return true
	})
}
