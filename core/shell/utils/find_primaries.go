package utils

import (
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// primary parses one test, action or option named tok.
func (p *findParser) primary(tok string) findNode {
	r := p.run
	isOption := false
	var node findNode
	switch tok {
	case "-name", "-iname", "-lname", "-ilname":
		pat, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		flags := fnmatchFlags{casefold: tok == "-iname" || tok == "-ilname"}
		if tok == "-lname" || tok == "-ilname" {
			node = findPred(func(r *findRun, f *findFile) bool {
				info := f.lstat(r)
				if info == nil || info.Mode()&fs.ModeSymlink == 0 {
					return false
				}
				target, err := r.t.env.FS.Readlink(f.path())
				return err == nil && fnmatch(pat, target, flags)
			})
			break
		}
		node = findPred(func(r *findRun, f *findFile) bool { return fnmatch(pat, f.base(), flags) })
	case "-path", "-wholename", "-ipath", "-iwholename":
		pat, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		flags := fnmatchFlags{casefold: strings.HasPrefix(tok, "-i")}
		node = findPred(func(r *findRun, f *findFile) bool { return fnmatch(pat, f.shownPath(), flags) })
	case "-regex", "-iregex":
		pat, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		src, err := TranslateRegex(pat, RegexOptions{Dialect: r.regexDialect})
		if err != nil {
			return p.fail(err.Error())
		}
		if tok == "-iregex" {
			src = "(?i)" + src
		}
		re, err := regexp.Compile(`^(?:` + src + `)$`)
		if err != nil {
			return p.fail(compileError(err).Error())
		}
		node = findPred(func(r *findRun, f *findFile) bool { return re.MatchString(f.shownPath()) })
	case "-regextype":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		switch v {
		case "emacs", "findutils-default":
			r.regexDialect = EmacsRegex
		case "posix-basic", "grep", "ed", "sed", "posix-minimal-basic":
			r.regexDialect = BasicRegex
		case "posix-extended", "egrep", "posix-egrep", "awk", "posix-awk", "gnu-awk":
			r.regexDialect = ExtendedRegex
		default:
			return p.fail("Unknown regular expression type " + quoteAlways(v) + "; valid types are 'findutils-default', 'ed', 'emacs', 'gnu-awk', 'grep', 'posix-awk', 'awk', 'posix-basic', 'posix-egrep', 'egrep', 'posix-extended', 'posix-minimal-basic', 'sed'.")
		}
		return findTrue()
	case "-type", "-xtype":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		want := map[byte]bool{}
		for _, part := range strings.Split(v, ",") {
			if len(part) != 1 || strings.IndexByte("bcdpflsD", part[0]) < 0 {
				if len(part) > 1 {
					return p.fail("Must separate multiple arguments to " + tok + " using: ','")
				}
				return p.fail("Unknown argument to " + tok + ": " + part)
			}
			want[part[0]] = true
		}
		xtype := tok == "-xtype"
		node = findPred(func(r *findRun, f *findFile) bool {
			typ, ok := f.fileType(r, xtype != (r.follow == "-L"))
			return ok && want[fileTypeLetter(typ)]
		})
	case "-maxdepth", "-mindepth":
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
			r.maxDepth = n
		} else {
			r.minDepth = n
		}
		isOption = true
		node = findTrue()
	case "-depth", "-d":
		p.globalOption(tok)
		r.depthFirst = true
		isOption = true
		node = findTrue()
	case "-follow":
		r.follow = "-L"
		return findTrue()
	case "-warn", "-nowarn":
		p.warn = tok == "-warn"
		return findTrue()
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-daystart":
		return findTrue()
	case "-prune":
		node = findPred(func(r *findRun, f *findFile) bool {
			if !r.depthFirst {
				f.pruned = true
			}
			return true
		})
	case "-quit":
		node = findPred(func(r *findRun, f *findFile) bool {
			r.quit = true
			return true
		})
	case "-true":
		node = findTrue()
	case "-false":
		node = findPred(func(*findRun, *findFile) bool { return false })
	case "-empty":
		node = findPred(func(r *findRun, f *findFile) bool {
			info := f.stat(r)
			if r.follow != "-L" {
				info = f.lstat(r)
			}
			switch {
			case info == nil:
				return false
			case info.IsDir():
				entries, err := r.t.env.FS.ReadDir(f.path())
				return err == nil && len(entries) == 0
			case info.Mode().IsRegular():
				return info.Size() == 0
			}
			return false
		})
	case "-size":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		unit := int64(512)
		num := v
		if num != "" {
			switch num[len(num)-1] {
			case 'b':
				unit, num = 512, num[:len(num)-1]
			case 'c':
				unit, num = 1, num[:len(num)-1]
			case 'w':
				unit, num = 2, num[:len(num)-1]
			case 'k':
				unit, num = 1024, num[:len(num)-1]
			case 'M':
				unit, num = 1<<20, num[:len(num)-1]
			case 'G':
				unit, num = 1<<30, num[:len(num)-1]
			}
		}
		a, ok := parseNumericArg(num)
		if !ok {
			return p.fail("invalid -size type " + quoteAlways(v))
		}
		node = findPred(func(r *findRun, f *findFile) bool {
			info := f.info(r)
			if info == nil {
				return false
			}
			return a.matches((info.Size() + unit - 1) / unit)
		})
	case "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		a, ok := parseNumericArg(v)
		if !ok {
			return p.fail("invalid argument " + quoteAlways(v) + " to " + quoteAlways(tok))
		}
		unit := 24 * time.Hour
		if strings.HasSuffix(tok, "min") {
			unit = time.Minute
		}
		node = findPred(func(r *findRun, f *findFile) bool {
			info := f.info(r)
			return info != nil && a.matches(ageIn(r.now, info.ModTime(), unit))
		})
	case "-newer", "-anewer", "-cnewer":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		ref, err := r.t.env.FS.Stat(r.t.abs(v))
		if err != nil {
			return p.fail(quoteAlways(v) + ": " + errText(err))
		}
		mt := ref.ModTime()
		node = findPred(func(r *findRun, f *findFile) bool {
			info := f.info(r)
			return info != nil && info.ModTime().After(mt)
		})
	case "-perm":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		kind := byte(0)
		spec := v
		if spec != "" && (spec[0] == '-' || spec[0] == '/' || spec[0] == '+') {
			kind, spec = spec[0], spec[1:]
		}
		want, ok := applyModeSpec(spec, 0, false, 0)
		if !ok {
			return p.fail("invalid mode " + quoteAlways(v))
		}
		node = findPred(func(r *findRun, f *findFile) bool {
			info := f.info(r)
			if info == nil {
				return false
			}
			have := unixBits(info.Mode())
			switch kind {
			case '-':
				return have&want == want
			case '/', '+':
				return want == 0 || have&want != 0
			}
			return have == want
		})
	case "-user", "-group", "-uid", "-gid":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		// Every entry of a workspace belongs to root.
		isRoot := v == "root" || v == "0"
		if (tok == "-user" || tok == "-group") && !isRoot {
			if _, err := strconv.Atoi(v); err != nil {
				what := "user"
				if tok == "-group" {
					what = "group"
				}
				return p.fail(quoteAlways(v) + " is not the name of a known " + what)
			}
		}
		if tok == "-uid" || tok == "-gid" {
			a, ok := parseNumericArg(v)
			if !ok {
				return p.fail("invalid argument " + quoteAlways(v) + " to " + quoteAlways(tok))
			}
			isRoot = a.matches(0)
		}
		node = findPred(func(*findRun, *findFile) bool { return isRoot })
	case "-nouser", "-nogroup":
		node = findPred(func(*findRun, *findFile) bool { return false })
	case "-links":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		a, ok := parseNumericArg(v)
		if !ok {
			return p.fail("invalid argument " + quoteAlways(v) + " to " + quoteAlways(tok))
		}
		node = findPred(func(r *findRun, f *findFile) bool { return a.matches(f.links(r)) })
	case "-readable", "-writable", "-executable":
		bits := map[string]uint32{"-readable": 0o444, "-writable": 0o222, "-executable": 0o111}[tok]
		node = findPred(func(r *findRun, f *findFile) bool {
			info := f.info(r)
			return info != nil && unixBits(info.Mode())&bits != 0
		})
	case "-print", "-print0":
		p.sawAction = true
		end := byte('\n')
		if tok == "-print0" {
			end = 0
		}
		node = findPred(func(r *findRun, f *findFile) bool {
			f.writeShown(r.t, end)
			return true
		})
	case "-printf":
		v, ok := p.arg(tok)
		if !ok {
			return p.fail("")
		}
		p.sawAction = true
		node = findPred(func(r *findRun, f *findFile) bool {
			r.t.writeString(r.printf(v, f))
			return true
		})
	case "-ls":
		p.sawAction = true
		node = findPred(func(r *findRun, f *findFile) bool {
			r.t.writeString(r.lsLine(f))
			return true
		})
	case "-delete":
		p.sawAction = true
		r.depthFirst = true
		node = findPred(func(r *findRun, f *findFile) bool { return r.delete(f) })
	case "-exec", "-execdir", "-ok", "-okdir":
		p.sawAction = true
		return p.execPrimary(tok)
	case "-fprint", "-fprint0", "-fls", "-fprintf", "-files0-from", "-samefile", "-used", "-inum", "-context":
		return p.fail("unsupported predicate `" + tok + "' in this workspace")
	default:
		if strings.HasPrefix(tok, "-") {
			return p.fail("unknown predicate `" + tok + "'")
		}
		return p.pathsMustPrecede(p.pos - 1)
	}
	if !isOption {
		p.lastNonOption = tok
	}
	return node
}

func findTrue() findNode { return findPred(func(*findRun, *findFile) bool { return true }) }

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

// printf renders a -printf format for one file.
func (r *findRun) printf(format string, f *findFile) string {
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
				return b.String()
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
		b.WriteString(applyWidth(spec, val))
		i = j
	}
	return b.String()
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
