package awk

import (
	"gatehouse/core/shell/utils"
	"strconv"
)

// execute runs BEGIN, the records, END, and returns the exit status.
func (in *interp) execute() {
	if in.runSpecialBlocks(in.prog.begins, true) {
		in.runEnd()
		return
	}
	if len(in.prog.rules) > 0 || len(in.prog.ends) > 0 || len(in.prog.beginFiles) > 0 || len(in.prog.endFiles) > 0 {
		if in.mainLoop() {
			in.runEnd()
			return
		}
	}
	in.runEnd()
}

// runSpecialBlocks runs BEGIN (or END) actions; it reports an exit.
func (in *interp) runSpecialBlocks(blocks []*blockStmt, begin bool) (exited bool) {
	in.inBegin = begin
	defer func() { in.inBegin = false }()
	for _, b := range blocks {
		if in.guardedBlock(b) == ctlExit {
			return true
		}
	}
	return false
}

// guardedBlock runs one action, turning exit and next signals raised
// inside functions into their control outcome.
func (in *interp) guardedBlock(b *blockStmt) (c ctl) {
	defer func() {
		if r := recover(); r != nil {
			switch sig := r.(type) {
			case exitError:
				c = ctlExit
			case nextSignal:
				c = sig.c
			default:
				panic(r)
			}
		}
	}()
	return in.execBlock(b)
}

func (in *interp) runEnd() {
	if in.endDone {
		return
	}
	in.endDone = true
	in.inEnd = true
	in.input = nil
	for _, b := range in.prog.ends {
		if in.guardedBlock(b) == ctlExit {
			return
		}
	}
}

// mainLoop reads every record and runs the rules; it reports an exit.
func (in *interp) mainLoop() (exited bool) {
	for {
		line, ok := in.nextRecord()
		if !ok {
			return false
		}
		in.rec.set0(line)
		in.tick()
		switch in.runRules() {
		case ctlExit:
			return true
		case ctlNextFile:
			in.skipFile()
		}
	}
}

// runRules runs the pattern-action rules over the current record.
func (in *interp) runRules() (c ctl) {
	defer func() {
		if r := recover(); r != nil {
			switch sig := r.(type) {
			case exitError:
				c = ctlExit
			case nextSignal:
				c = sig.c
			default:
				panic(r)
			}
		}
	}()
	for i, r := range in.prog.rules {
		in.curPos = r.pos
		if !in.matches(i, r) {
			continue
		}
		if r.body == nil {
			in.printRecord()
			continue
		}
		switch c := in.execBlock(r.body); c {
		case ctlNext:
			return ctlNone
		case ctlExit, ctlNextFile:
			return c
		}
	}
	return ctlNone
}

// matches evaluates a rule's pattern; ranges keep their state per rule.
func (in *interp) matches(i int, r *rule) bool {
	if r.pattern == nil {
		return true
	}
	if r.pattern2 == nil {
		return in.cond(r.pattern)
	}
	if !in.ranges[i] {
		if !in.cond(r.pattern) {
			return false
		}
		in.ranges[i] = !in.cond(r.pattern2)
		return true
	}
	if in.cond(r.pattern2) {
		in.ranges[i] = false
	}
	return true
}

func (in *interp) printRecord() {
	w := in.out
	w.WriteString(in.rec.get0(in))
	w.WriteString(in.ors)
	in.checkOutput()
}

// nextRecord reads the next main-input record, moving through ARGV.
func (in *interp) nextRecord() (string, bool) {
	for {
		if in.input == nil && !in.openNext() {
			return "", false
		}
		line, rt, ok := in.input.read(&in.rs)
		if in.input.err != nil {
			in.inputError(in.input.err)
		}
		if ok {
			in.rec.nr++
			in.rec.fnr++
			in.globals[idxRT].v = str(rt)
			return line, true
		}
		in.endFile()
	}
}

// endFile runs ENDFILE and closes the current input.
func (in *interp) endFile() {
	for _, b := range in.prog.endFiles {
		if in.guardedBlock(b) == ctlExit {
			in.closeInput()
			panic(exitError{})
		}
	}
	in.closeInput()
}

func (in *interp) closeInput() {
	if in.input != nil && in.input.close != nil {
		in.input.close()
	}
	in.input = nil
}

// skipFile abandons the current input (nextfile).
func (in *interp) skipFile() {
	if in.input != nil {
		in.endFile()
	}
}

func (in *interp) inputError(err error) {
	if err == errRecordTooLong {
		in.fatal("record too long: more than " + strconv.Itoa(maxRecord>>20) + " MiB without a record separator")
	}
	in.fatal("error reading input file `" + in.filename() + "': " + utils.ErrText(err))
}

// isAssignmentOperand says whether an operand is a var=value assignment
// rather than a file: an identifier, then "=" (what the regular expression
// ^[A-Za-z_][A-Za-z0-9_]*= matches, without compiling one at start-up).
func isAssignmentOperand(arg string) bool {
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		switch {
		case c == '=':
			return i > 0
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return false
}

// openNext opens the next file operand of ARGV, performing the variable
// assignments met on the way; with no file operand it reads stdin once.
func (in *interp) openNext() bool {
	for !in.noMoreIn {
		argc := int(in.readSpecial(idxARGC).toNum())
		if in.argIndex >= argc {
			in.noMoreIn = true
			if !in.usedFile {
				in.usedFile = true
				return in.startInput("-")
			}
			return false
		}
		i := in.argIndex
		in.argIndex++
		v, ok := in.argvArray().get(strconv.Itoa(i))
		if !ok {
			continue
		}
		arg := in.toStr(*v)
		if arg == "" {
			continue
		}
		if isAssignmentOperand(arg) {
			in.commandLineAssign(arg)
			continue
		}
		in.usedFile = true
		if in.startInput(arg) {
			return true
		}
	}
	return false
}

func (in *interp) argvArray() *array {
	return in.array(&varExpr{scope: global, idx: idxARGV, name: "ARGV"})
}

// startInput opens one input file and runs BEGINFILE.
func (in *interp) startInput(name string) bool {
	in.globals[idxFILENAME].v = str(name)
	in.rec.fnr = 0
	if name == "-" || name == "/dev/stdin" {
		in.input = in.stdinReader()
	} else {
		f, err := in.env.FS.Open(in.env.Abs(name))
		if err == nil {
			if st, serr := f.Stat(); serr == nil && st.IsDir() {
				f.Close()
				in.warn("command line argument `" + name + "' is a directory: skipped")
				return false
			}
		}
		if err != nil {
			if len(in.prog.beginFiles) > 0 {
				in.globals[idxERRNO].v = str(utils.ErrText(err))
				if in.runBeginFile() == ctlNextFile {
					return false
				}
			}
			in.fatal("cannot open file `" + name + "' for reading: " + utils.ErrText(err))
		}
		in.input = newRecordReader(f, f.Close)
	}
	if in.runBeginFile() == ctlNextFile {
		in.skipFile()
		return false
	}
	return true
}

func (in *interp) runBeginFile() ctl {
	for _, b := range in.prog.beginFiles {
		switch in.guardedBlock(b) {
		case ctlExit:
			panic(exitError{})
		case ctlNextFile:
			return ctlNextFile
		}
	}
	return ctlNone
}

// commandLineAssign performs a `var=value` operand, escapes processed.
func (in *interp) commandLineAssign(arg string) {
	eq := 0
	for arg[eq] != '=' {
		eq++
	}
	name, val := arg[:eq], processEscapes(arg[eq+1:])
	in.assignByName(name, maybe(val))
}

// assignByName assigns a global by name (-v and operands).
func (in *interp) assignByName(name string, v value) {
	i, ok := in.prog.globalIndex[name]
	if !ok {
		return // a variable the program never mentions
	}
	if _, isFunc := in.prog.funcs[name]; isFunc {
		in.fatal("cannot use function `" + name + "' as variable name")
	}
	in.assign(&varExpr{scope: global, idx: i, name: name}, v)
}
