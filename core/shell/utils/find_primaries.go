package utils

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// primary parses one test, action or option named tok. Each family's
// parsers sit in a file of their own: names and paths (find_names.go),
// types, sizes, modes and owners (find_types.go), times (find_times.go),
// actions (find_actions.go) and options (below).
func (p *findParser) primary(tok string) findNode {
	switch tok {
	case "-name", "-iname", "-lname", "-ilname":
		return p.test(tok, p.nameTest(tok))
	case "-path", "-wholename", "-ipath", "-iwholename":
		return p.test(tok, p.pathTest(tok))
	case "-regex", "-iregex":
		return p.test(tok, p.regexTest(tok))
	case "-regextype":
		return p.regexType(tok)
	case "-type", "-xtype":
		return p.test(tok, p.typeTest(tok))
	case "-maxdepth", "-mindepth":
		return p.depthLimit(tok)
	case "-depth", "-d":
		return p.depthFirst(tok)
	case "-follow":
		return p.followLinks()
	case "-warn", "-nowarn":
		return p.warnings(tok)
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-daystart":
		return findTrue() // accepted, and nothing to do in a workspace
	case "-prune":
		return p.test(tok, findPrune())
	case "-quit":
		return p.test(tok, findQuit())
	case "-true":
		return p.test(tok, findTrue())
	case "-false", "-nouser", "-nogroup":
		return p.test(tok, findFalse())
	case "-empty":
		return p.test(tok, findEmpty())
	case "-size":
		return p.test(tok, p.sizeTest(tok))
	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
		return p.test(tok, p.ageTest(tok))
	case "-newer", "-anewer", "-cnewer":
		return p.test(tok, p.newerTest(tok))
	case "-perm":
		return p.test(tok, p.permTest(tok))
	case "-user", "-group", "-uid", "-gid":
		return p.test(tok, p.ownerTest(tok))
	case "-links":
		return p.test(tok, p.linksTest(tok))
	case "-readable", "-writable", "-executable":
		return p.test(tok, findAccess(tok))
	case "-print", "-print0", "-printf", "-ls", "-delete":
		return p.test(tok, p.printAction(tok))
	case "-exec", "-execdir", "-ok", "-okdir":
		p.sawAction = true
		return p.execPrimary(tok)
	case "-fprint", "-fprint0", "-fls", "-fprintf", "-files0-from", "-samefile", "-used", "-inum", "-context":
		return p.fail("unsupported predicate `" + tok + "' in this workspace")
	}
	if newerXY(tok) {
		return p.test(tok, p.newerXYTest(tok))
	}
	if strings.HasPrefix(tok, "-newer") && len(tok) == len("-newerXY") {
		return p.fail("invalid predicate `" + tok + "'")
	}
	if strings.HasPrefix(tok, "-") {
		return p.fail("unknown predicate `" + tok + "'")
	}
	return p.pathsMustPrecede(p.pos - 1)
}

// test records tok as the last test or action seen, which the warning
// about a global option placed after one names, and returns its node.
func (p *findParser) test(tok string, node findNode) findNode {
	p.lastNonOption = tok
	return node
}

// depthLimit parses -maxdepth N and -mindepth N, global options.
func (p *findParser) depthLimit(tok string) findNode {
	v, ok := p.arg(tok)
	if !ok {
		return p.fail("")
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return p.fail("Expected a positive decimal integer argument to " + tok + ", but got " + quoteAlways(v))
	}
	p.globalOption(tok)
	if tok == "-maxdepth" {
		p.run.maxDepth = n
	} else {
		p.run.minDepth = n
	}
	return findTrue()
}

// depthFirst is -depth (and -d): a directory after its contents.
func (p *findParser) depthFirst(tok string) findNode {
	p.globalOption(tok)
	p.run.depthFirst = true
	return findTrue()
}

// followLinks is -follow, the old spelling of -L.
func (p *findParser) followLinks() findNode {
	p.run.follow = "-L"
	return findTrue()
}

// warnings is -warn and -nowarn.
func (p *findParser) warnings(tok string) findNode {
	p.warn = tok == "-warn"
	return findTrue()
}

func findTrue() findNode { return findPred(func(*findRun, *findFile) bool { return true }) }

func findFalse() findNode { return findPred(func(*findRun, *findFile) bool { return false }) }

// execPrimary parses -exec CMD... ; or -exec CMD... {} +.
func (p *findParser) execPrimary(tok string) findNode {
	start := p.pos
	for p.pos < len(p.args) {
		a := p.args[p.pos]
		if a == ";" {
			break
		}
		if a == "+" && p.pos > start && p.args[p.pos-1] == "{}" {
			break
		}
		p.pos++
	}
	if p.pos >= len(p.args) || p.pos == start {
		return p.fail("missing argument to `" + tok + "'")
	}
	argv := append([]string(nil), p.args[start:p.pos]...)
	batch := p.args[p.pos] == "+"
	p.pos++
	p.lastNonOption = tok
	ask := tok == "-ok" || tok == "-okdir"
	if batch {
		if ask {
			return p.fail("missing argument to `" + tok + "'")
		}
		b := &findBatch{argv: argv[:len(argv)-1]}
		p.run.batches = append(p.run.batches, b)
		return findPred(func(r *findRun, f *findFile) bool {
			r.addToBatch(b, f.shownPath())
			return true
		})
	}
	return findPred(func(r *findRun, f *findFile) bool {
		cmd := make([]string, len(argv))
		for i, a := range argv {
			cmd[i] = strings.ReplaceAll(a, "{}", f.shownPath())
		}
		if ask && !r.confirm(cmd) {
			return false
		}
		return r.exec(cmd) == 0
	})
}

// printf renders a -printf format for one file. A field wider than
// wideField is a count of padding bytes the caller chose (GNU streams
// %999999999p): the line's memory budget is asked for it first, and
// charged is what the caller gives back once the text is written.
func (r *findRun) printf(format string, f *findFile) (out string, charged int64, err error) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			i++
			switch format[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '0':
				b.WriteByte(0)
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			case 'v':
				b.WriteByte('\v')
			case '\\':
				b.WriteByte('\\')
			case 'c':
				return b.String(), charged, nil
			default:
				b.WriteByte('\\')
				b.WriteByte(format[i])
			}
			continue
		}
		if c != '%' || i+1 >= len(format) {
			b.WriteByte(c)
			continue
		}
		// %[flags][width][.precision]directive
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		for j < len(format) && (format[j] >= '0' && format[j] <= '9' || format[j] == '.') {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		spec := format[i+1 : j]
		d := format[j]
		var val string
		if (d == 'T' || d == 'A' || d == 'C') && j+1 < len(format) {
			j++
			val = r.timeField(f, format[j])
		} else {
			val = r.printfField(f, d)
		}
		if w := specWidth(spec); w > wideField {
			if err := r.t.env.Grow(int64(w)); err != nil {
				return "", charged, err
			}
			charged += int64(w)
		}
		b.WriteString(applyWidth(spec, val))
		i = j
	}
	return b.String(), charged, nil
}

// specWidth is the width a -printf field spec pads to, as applyWidth reads
// it (0 for none, and for one too large to read, which pads nothing).
func specWidth(spec string) int {
	digits := strings.TrimLeft(spec, "-+ #0")
	if dot := strings.IndexByte(digits, '.'); dot >= 0 {
		digits = digits[:dot]
	}
	w, err := strconv.Atoi(digits)
	if err != nil {
		return 0
	}
	return w
}

// applyWidth pads a -printf field to "%-10" style widths.
func applyWidth(spec, val string) string {
	if spec == "" {
		return val
	}
	left := strings.Contains(spec, "-")
	digits := strings.TrimLeft(spec, "-+ #0")
	if dot := strings.IndexByte(digits, '.'); dot >= 0 {
		if prec, err := strconv.Atoi(digits[dot+1:]); err == nil && prec < len(val) {
			val = val[:prec]
		}
		digits = digits[:dot]
	}
	w, err := strconv.Atoi(digits)
	if err != nil || w <= len(val) {
		return val
	}
	if left {
		return padRight(val, w)
	}
	return padLeft(val, w)
}

func (r *findRun) printfField(f *findFile, d byte) string {
	info := f.info(r)
	switch d {
	case 'p':
		return f.shownPath()
	case 'f':
		return f.base()
	case 'h':
		dir := path.Dir(strings.TrimRight(f.shownPath(), "/"))
		if !strings.Contains(strings.TrimRight(f.shownPath(), "/"), "/") {
			return "."
		}
		return dir
	case 'P':
		rel := strings.TrimPrefix(f.shownPath(), f.start)
		return strings.TrimPrefix(rel, "/")
	case 'H':
		return f.start
	case 'd':
		return strconv.Itoa(f.depth)
	case '%':
		return "%"
	case 'u', 'g':
		return "root"
	case 'U', 'G', 'i':
		return "0"
	case 'n':
		return strconv.FormatInt(f.links(r), 10)
	case 'l':
		if info != nil && info.Mode()&fs.ModeSymlink != 0 {
			target, _ := r.t.env.FS.Readlink(f.path())
			return target
		}
		return ""
	case 'y':
		if info == nil {
			return "?"
		}
		return string(fileTypeLetter(f.lstat(r).Mode()))
	case 'Y':
		st := f.stat(r)
		if st == nil {
			return "N"
		}
		return string(fileTypeLetter(st.Mode()))
	}
	if info == nil {
		return ""
	}
	switch d {
	case 's':
		return strconv.FormatInt(info.Size(), 10)
	case 'k':
		return strconv.FormatInt(diskBlocks(info), 10)
	case 'b':
		return strconv.FormatInt(diskBlocks(info)*2, 10)
	case 'm':
		return strconv.FormatUint(uint64(unixBits(info.Mode())), 8)
	case 'M':
		return modeString(info.Mode())
	case 't', 'a', 'c':
		return info.ModTime().In(r.loc).Format("Mon Jan _2 15:04:05.0000000000 2006")
	}
	return "%" + string(d)
}

// timeField is %Tk (and %Ak, %Ck): one strftime field of the mtime.
func (r *findRun) timeField(f *findFile, k byte) string {
	info := f.info(r)
	if info == nil {
		return ""
	}
	t := info.ModTime().In(r.loc)
	layouts := map[byte]string{
		'Y': "2006", 'm': "01", 'd': "02", 'H': "15", 'M': "04", 'S': "05", 'F': "2006-01-02",
		'T': "15:04:05", 'D': "01/02/06", 'y': "06", 'b': "Jan", 'h': "Jan", 'B': "January",
		'a': "Mon", 'A': "Monday", 'p': "PM", 'Z': "MST", 'z': "-0700", 'e': "_2", 'r': "03:04:05 PM",
	}
	switch k {
	case '@':
		frac := strconv.Itoa(t.Nanosecond())
		return strconv.FormatInt(t.Unix(), 10) + "." + strings.Repeat("0", 9-len(frac)) + frac + "0"
	case '+':
		return t.Format("2006-01-02+15:04:05.0000000000")
	case 's':
		return strconv.FormatInt(t.Unix(), 10)
	case 'j':
		return padLeft(strconv.Itoa(t.YearDay()), 3)
	}
	if layout, ok := layouts[k]; ok {
		return t.Format(layout)
	}
	return ""
}
