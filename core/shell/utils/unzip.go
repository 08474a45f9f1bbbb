package utils

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

const unzipHelp = `UnZip 6.00 of 20 April 2009, by Debian. Original by Info-ZIP.

Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]
  Default action is to extract files in list, except those in xlist, to exdir;
  file[.zip] may be a wildcard.

  -p  extract files to pipe, no messages     -l  list files (short format)
  -t  test compressed archive data           -d  extract files into exdir
modifiers:
  -n  never overwrite existing files         -q  quiet mode (-qq => quieter)
  -o  overwrite files WITHOUT prompting      -j  junk paths (do not make directories)
`

var unzipOpts = []optDef{
	{short: 'l'},
	{short: 'p'},
	{short: 't'},
	{short: 'd', arg: needArg},
	{short: 'n'},
	{short: 'o'},
	{short: 'q'},
	{short: 'j'},
	{short: 'x'},
}

// unzipUtility makes unzip (see builtins): listing, testing, piping and
// extracting, through the door like tar (security.md section 25).
func unzipUtility(string) *Utility {
	return &Utility{
		Name:        "unzip",
		Run:         runUnzip,
		Keeps:       KeepsAll,
		Operands:    unzipOperands,
		OperandExit: 9,
		Voice: func(arg, msg string) string {
			return "unzip:  cannot find or open " + arg + ", " + arg + ".zip or " + arg + ".ZIP.\n"
		},
		Help: unzipHelp,
	}
}

// unzipOperands: the archive is read; -d's directory is written.
func unzipOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, unzipOpts, parseMode{stopAtOperand: false})
	if err != nil || len(args.operands) == 0 {
		return nil
	}
	refs := []OperandRef{{Index: args.operands[0], Kind: Read}}
	for _, o := range args.opts {
		if o.name == "d" {
			refs = append(refs, optionOperand(o, Write))
		}
	}
	return refs
}

type unzipConfig struct {
	mode             byte // 'x', 'l', 'p', 't'
	dir              string
	never, overwrite bool
	quiet, junk      bool
	include, exclude []string
	status           int
	none             bool // the prompt's "[N]one" (or EOF) was given
	all              bool // "[A]ll"
	answers          *bufio.Reader
}

func runUnzip(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "unzip", defs: unzipOpts, usageExit: 10, help: unzipHelp})
	if done {
		return status, nil
	}
	cfg := &unzipConfig{mode: 'x'}
	for _, o := range args.opts {
		switch o.name {
		case "l", "p", "t":
			cfg.mode = o.name[0]
		case "d":
			cfg.dir = o.value
		case "n":
			cfg.never = true
		case "o":
			cfg.overwrite = true
		case "q":
			cfg.quiet = true
		case "j":
			cfg.junk = true
		}
	}
	operands := args.operandStrings(e.Args)
	if len(operands) == 0 {
		t.writeString(unzipHelp)
		return t.end(0)
	}
	excluding := false
	for _, op := range operands[1:] {
		switch {
		case op == "-x":
			excluding = true
		case excluding:
			cfg.exclude = append(cfg.exclude, op)
		default:
			cfg.include = append(cfg.include, op)
		}
	}
	if args.has("x") {
		cfg.exclude, cfg.include = append(cfg.exclude, cfg.include...), nil
	}
	name := operands[0]
	zr, size, ok := unzipOpen(t, name)
	if !ok {
		return t.end(9)
	}
	cfg.answers = bufio.NewReader(t.stdin())
	return t.end(unzipRun(t, cfg, name, zr, size))
}

// unzipOpen reads the archive, trying NAME.zip as unzip does.
func unzipOpen(t *tool, name string) (*zip.Reader, int64, bool) {
	for _, cand := range []string{name, name + ".zip", name + ".ZIP"} {
		f, err := t.env.FS.Open(t.abs(cand))
		if err != nil {
			continue
		}
		data, err := readAllCtx(t, f)
		f.Close()
		if err != nil {
			break
		}
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.writeString("[" + cand + "]\n")
			t.flush()
			t.rawStderr("  End-of-central-directory signature not found.  Either this file is not\n  a zipfile, or it constitutes one disk of a multi-part archive.  In the\n  latter case the central directory and zipfile comment will be found on\n  the last disk(s) of this archive.\nunzip:  cannot find zipfile directory in one of " + name + " or\n        " + name + ".zip, and cannot find " + name + ".ZIP, period.\n")
			return nil, 0, false
		}
		return zr, int64(len(data)), true
	}
	t.rawStderr("unzip:  cannot find or open " + name + ", " + name + ".zip or " + name + ".ZIP.\n")
	return nil, 0, false
}

// unzipSelected applies the member list and -x list (unzip's wildcards).
func unzipSelected(cfg *unzipConfig, seen []bool, name string) bool {
	for _, p := range cfg.exclude {
		if fnmatch(p, name, fnmatchFlags{}) {
			return false
		}
	}
	if len(cfg.include) == 0 {
		return true
	}
	hit := false
	for i, p := range cfg.include {
		if fnmatch(p, name, fnmatchFlags{}) {
			seen[i], hit = true, true
		}
	}
	return hit
}

// unzipRun lists, tests, pipes or extracts; it returns unzip's status.
func unzipRun(t *tool, cfg *unzipConfig, name string, zr *zip.Reader, size int64) int {
	seen := make([]bool, len(cfg.include))
	var files []*zip.File
	for _, f := range zr.File {
		if unzipSelected(cfg, seen, f.Name) {
			files = append(files, f)
		}
	}
	if cfg.mode != 'p' && !(cfg.quiet && cfg.mode == 'x') {
		t.writeString("Archive:  " + name + "\n")
	}
	switch cfg.mode {
	case 'l':
		unzipList(t, files)
	case 'p':
		for _, f := range files {
			if rc, err := f.Open(); err == nil {
				io.Copy(t.out, &streamOut{t: t, r: rc})
				rc.Close()
			}
		}
	case 't':
		bad := 0
		for _, f := range files {
			rc, err := f.Open()
			if err == nil {
				_, err = io.Copy(io.Discard, &streamOut{t: t, r: rc})
				rc.Close()
			}
			word := "OK"
			if err != nil {
				word, bad = "bad CRC", bad+1
			}
			t.writeString("    testing: " + unzipPad(f.Name) + "   " + word + "\n")
		}
		if bad == 0 {
			t.writeString("No errors detected in compressed data of " + name + ".\n")
		} else {
			cfg.status = 2
		}
	default:
		unzipExtract(t, cfg, files)
	}
	for i, ok := range seen {
		if !ok && cfg.mode != 'l' {
			t.rawStderr("caution: filename not matched:  " + cfg.include[i] + "\n")
			cfg.status = 11
		}
	}
	return cfg.status
}

// unzipPad is unzip's name column: 22 wide, left aligned.
func unzipPad(name string) string {
	if len(name) >= 22 {
		return name
	}
	return name + strings.Repeat(" ", 22-len(name))
}

// unzipList is unzip -l.
func unzipList(t *tool, files []*zip.File) {
	t.writeString("  Length      Date    Time    Name\n---------  ---------- -----   ----\n")
	var total uint64
	for _, f := range files {
		total += f.UncompressedSize64
		t.writeString(unzipNum(f.UncompressedSize64) + "  " + f.Modified.Format("2006-01-02 15:04") + "   " + f.Name + "\n")
	}
	word := " files"
	if len(files) == 1 {
		word = " file"
	}
	t.writeString("---------                     -------\n" + unzipNum(total) + "                     " + strconv.Itoa(len(files)) + word + "\n")
}

func unzipNum(n uint64) string {
	s := strconv.FormatUint(n, 10)
	if len(s) < 9 {
		s = strings.Repeat(" ", 9-len(s)) + s
	}
	return s
}

// unzipSafe strips what unzip strips from a member name: leading slashes
// and ".." components (said by unzipWarn when the member is reached).
func unzipSafe(name string) string {
	var kept []string
	for _, part := range strings.Split(strings.TrimLeft(name, "/"), "/") {
		if part != ".." && part != "." {
			kept = append(kept, part)
		}
	}
	return strings.Join(kept, "/")
}

// unzipWarn says what unzipSafe stripped, as unzip does.
func unzipWarn(t *tool, name string) {
	if strings.HasPrefix(name, "/") {
		t.flush()
		t.rawStderr("warning:  stripped absolute path spec from " + name + "\n")
	}
	for _, part := range strings.Split(name, "/") {
		if part == ".." {
			t.writeString("warning:  skipped \"../\" path component(s) in " + name + "\n")
			return
		}
	}
}

// unzipExtract writes the members below -d's directory (or the cwd).
// Every destination is asked of the door first; symlinks are made last.
func unzipExtract(t *tool, cfg *unzipConfig, files []*zip.File) {
	base := t.env.Dir
	if cfg.dir != "" {
		base = t.abs(cfg.dir)
		if err := t.env.FS.Mkdir(base, 0o755); err != nil && !isExist(err) {
			t.rawStderr("checkdir:  cannot create extraction directory: " + cfg.dir + "\n           " + errText(err) + "\n")
			cfg.status = 3
			return
		}
	}
	x := &tarExtractor{t: t, cfg: &tarConfig{announced: map[string]bool{}}, base: base}
	type plan struct {
		f          *zip.File
		name, dest string
	}
	var plans []plan
	for _, f := range files {
		name := unzipSafe(f.Name)
		if name == "" {
			continue
		}
		if cfg.junk {
			if strings.HasSuffix(f.Name, "/") {
				continue
			}
			name = path.Base(name)
		}
		if strings.Contains(f.Name, "..") || strings.HasPrefix(f.Name, "/") {
			cfg.status = max(cfg.status, 1)
		}
		plans = append(plans, plan{f, name, path.Join(base, name)})
	}
	for _, p := range plans {
		if err := t.env.FS.CheckCreate(p.dest); err != nil && !isNotExist(err) {
			t.rawStderr("error:  cannot create " + p.name + "\n        " + errText(err) + "\n")
			cfg.status = 50
			return
		}
	}
	type link struct{ name, dest, target string }
	var links []link
	for _, p := range plans {
		if t.stopped() {
			return
		}
		mode := p.f.Mode()
		unzipWarn(t, p.f.Name)
		if p.f.FileInfo().IsDir() {
			if !cfg.quiet {
				t.writeString("   creating: " + strings.TrimSuffix(p.name, "/") + "/\n")
			}
			x.parents(p.dest + "/x")
			continue
		}
		if !unzipMayReplace(t, cfg, p.name, p.dest) {
			continue
		}
		rc, err := p.f.Open()
		if err != nil {
			t.rawStderr("error:  " + p.name + ": " + err.Error() + "\n")
			cfg.status = 2
			continue
		}
		var data bytes.Buffer
		_, err = io.Copy(&data, &tarBudget{t: t, r: rc})
		rc.Close()
		if err != nil {
			cfg.status = 2
			continue
		}
		if mode&fs.ModeSymlink != 0 {
			if !cfg.quiet {
				t.writeString("    linking: " + unzipPad(p.name) + "  -> " + data.String() + " \n")
			}
			links = append(links, link{p.name, p.dest, data.String()})
			x.parents(p.dest)
			continue
		}
		if !cfg.quiet {
			verb := "  inflating: "
			if p.f.Method == zip.Store {
				verb = " extracting: "
			}
			t.writeString(verb + unzipPad(p.name) + "  \n")
		}
		x.cfg.failed = false
		if err := x.parents(p.dest); err != nil {
			t.rawStderr("checkdir error:  cannot create " + path.Dir(p.name) + "\n                 " + errText(err) + "\n")
			cfg.status = 50
			continue
		}
		perm := mode.Perm()
		if perm == 0 {
			perm = 0o644
		}
		x.file(tarPlan{m: tarMember{hdr: &tarHeaderReg}, name: p.name, dest: p.dest}, data.Bytes(), perm, p.f.Modified)
		if x.cfg.failed {
			cfg.status = 50
		}
	}
	if len(links) > 0 {
		if !cfg.quiet {
			t.writeString("finishing deferred symbolic links:\n")
		}
		for _, l := range links {
			if !cfg.quiet {
				t.writeString("  " + unzipPad(l.name) + " -> " + l.target + "\n")
			}
			if err := t.env.FS.Symlink(l.target, l.dest); err != nil {
				t.rawStderr("error:  cannot create symlink " + l.name + ": " + errText(err) + "\n")
				cfg.status = 50
			}
		}
	}
}

// unzipMayReplace decides about an existing destination: -o replaces, -n
// keeps, else unzip asks on standard input (EOF answers "[N]one").
func unzipMayReplace(t *tool, cfg *unzipConfig, name, dest string) bool {
	info, err := t.env.FS.Lstat(dest)
	if err != nil {
		return true
	}
	switch {
	case cfg.overwrite || cfg.all:
	case cfg.never || cfg.none:
		return false
	default:
		if info.Mode()&fs.ModeSymlink != 0 {
			t.rawStderr(name + " exists and is a symbolic link.\n")
		}
		t.rawStderr("replace " + name + "? [y]es, [n]o, [A]ll, [N]one, [r]ename: ")
		answer, err := cfg.answers.ReadString('\n')
		if err != nil && answer == "" {
			t.rawStderr(" NULL\n(EOF or read error, treating as \"[N]one\" ...)\n")
			cfg.none, cfg.status = true, max(cfg.status, 1)
			return false
		}
		switch strings.TrimSpace(answer) {
		case "y", "Y", "yes":
		case "A":
			cfg.all = true
		case "N":
			cfg.none = true
			return false
		default:
			return false
		}
	}
	if err := t.env.FS.Remove(dest); err != nil {
		t.rawStderr("error:  cannot delete old " + name + "\n        " + errText(err) + "\n")
		cfg.status = 50
		return false
	}
	return true
}

// tarHeaderReg marks an unzip member written as a regular file.
var tarHeaderReg = tar.Header{Typeflag: tar.TypeReg}

func isExist(err error) bool { return err != nil && os.IsExist(err) }
