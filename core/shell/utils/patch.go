package utils

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
)

const patchHelp = `Usage: patch [OPTION]... [ORIGFILE [PATCHFILE]]

Apply a unified diff to the files it names (or to ORIGFILE).

  -p NUM  --strip=NUM  Strip NUM leading components from file names.
  -i PATCHFILE  --input=PATCHFILE  Read patch from PATCHFILE instead of stdin.
  -o FILE  --output=FILE  Output patched files to FILE.
  -d DIR  --directory=DIR  Change the working directory to DIR first.
  -R  --reverse  Assume patches were created with old and new files swapped.
  -N  --forward  Ignore patches that appear to be reversed or already applied.
  -F LINES  --fuzz LINES  Set the fuzz factor to LINES for inexact matching.
  -b  --backup  Back up the original contents of each file.
  --no-backup-if-mismatch  Back up only if asked to (-b).
  -E  --remove-empty-files  Remove output files that are empty after patching.
  --dry-run  Do not actually change any files; just print what would happen.
  -s  --silent  --quiet  Work silently unless an error occurs.
  -t  --batch  Ask no questions; assume a reversed patch is reversed.
  -f  --force  Like -t, but apply a reversed patch anyway.
  --help  Display this help and exit.
  --version  Output version info.
`

var patchOpts = []optDef{
	{short: 'p', long: "strip", arg: needArg},
	{short: 'i', long: "input", arg: needArg},
	{short: 'o', long: "output", arg: needArg},
	{short: 'd', long: "directory", arg: needArg},
	{short: 'R', long: "reverse"},
	{short: 'N', long: "forward"},
	{short: 'F', long: "fuzz", arg: needArg},
	{short: 'b', long: "backup"},
	{long: "no-backup-if-mismatch"},
	{long: "backup-if-mismatch"},
	{short: 'E', long: "remove-empty-files"},
	{long: "dry-run"},
	{short: 's', long: "silent"},
	{long: "quiet"},
	{short: 't', long: "batch"},
	{short: 'f', long: "force"},
	{short: 'u', long: "unified"},
	{short: 'l', long: "ignore-whitespace"},
	{short: 'V', long: "version-control", arg: needArg},
	{short: 'z', long: "suffix", arg: needArg},
}

// patchUtility makes the patch utility (see builtins).
func patchUtility(string) *Utility {
	return &Utility{
		Name:        "patch",
		Keeps:       KeepsAll,
		Run:         runPatch,
		Operands:    patchOperands,
		OperandExit: 2,
		Help:        patchHelp,
	}
}

// patchOperands: ORIGFILE is written, PATCHFILE and -i read, -o written.
func patchOperands(argv []string) []OperandRef {
	args, err := parseArgs(argv, patchOpts, parseMode{})
	if err != nil {
		return nil
	}
	var refs []OperandRef
	for k, i := range args.operands {
		kind := Write
		if k == 1 {
			kind = Read
		}
		if argv[i] != "-" {
			refs = append(refs, OperandRef{Index: i, Kind: kind})
		}
	}
	for _, o := range args.opts {
		switch o.name {
		case "input":
			if o.value != "-" {
				refs = append(refs, optionOperand(o, Read))
			}
		case "output":
			if o.value != "-" {
				refs = append(refs, optionOperand(o, Write))
			}
		}
	}
	return refs
}

// patchConfig is a parsed patch command line.
type patchConfig struct {
	strip                     int // -1: not given
	input, output, dir        string
	reverse, forward, backup  bool
	noBackupMismatch, dryRun  bool
	silent, batch, force      bool
	removeEmpty, ignoreSpaces bool
	fuzz                      int
	target                    string // ORIGFILE
}

// patchRun is one patch invocation.
type patchRun struct {
	t      *tool
	cfg    *patchConfig
	status int // 0, 1 (hunks failed) or 2 (trouble)
}

func runPatch(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "patch", defs: patchOpts, usageExit: 2, help: patchHelp,
		version: "GNU patch 2.7.6\n"})
	if done {
		return t.end(status)
	}
	cfg := &patchConfig{strip: -1, fuzz: 2}
	for _, o := range args.opts {
		if msg := cfg.apply(o); msg != "" {
			t.rawStderr("patch: **** " + msg + "\n")
			return t.end(2)
		}
	}
	ops := args.operandStrings(e.Args)
	if len(ops) > 0 {
		cfg.target = ops[0]
	}
	if len(ops) > 1 && cfg.input == "" {
		cfg.input = ops[1]
	}
	text, err := patchInput(t, cfg.input)
	if err != nil {
		t.rawStderr("patch: **** Can't open patch file " + cfg.input + " : " + errText(err) + "\n")
		return t.end(2)
	}
	patches := parsePatchText(text)
	hunks := 0
	for _, p := range patches {
		hunks += len(p.hunks)
	}
	if hunks == 0 {
		t.rawStderr("patch: **** Only garbage was found in the patch input.\n")
		return t.end(2)
	}
	r := &patchRun{t: t, cfg: cfg}
	for _, p := range patches {
		if t.stopped() || r.status == 2 {
			break
		}
		r.file(p)
	}
	return t.end(r.status)
}

// apply sets one option; it returns a fatal message or "".
func (cfg *patchConfig) apply(o parsedOpt) string {
	switch o.name {
	case "strip", "fuzz":
		n, err := strconv.Atoi(o.value)
		if err != nil || n < 0 {
			return "strip count " + o.value + " is not a number"
		}
		if o.name == "strip" {
			cfg.strip = n
		} else {
			cfg.fuzz = n
		}
	case "input":
		cfg.input = o.value
	case "output":
		cfg.output = o.value
	case "directory":
		cfg.dir = o.value
	case "reverse":
		cfg.reverse = true
	case "forward":
		cfg.forward = true
	case "backup":
		cfg.backup = true
	case "no-backup-if-mismatch":
		cfg.noBackupMismatch = true
	case "backup-if-mismatch":
		cfg.noBackupMismatch = false
	case "remove-empty-files":
		cfg.removeEmpty = true
	case "dry-run":
		cfg.dryRun = true
	case "silent", "quiet":
		cfg.silent = true
	case "batch":
		cfg.batch = true
	case "force":
		cfg.force = true
	case "ignore-whitespace":
		cfg.ignoreSpaces = true
	}
	return ""
}

// patchInput reads the whole patch (from -i, PATCHFILE or stdin).
func patchInput(t *tool, name string) (string, error) {
	if name == "" {
		name = "-"
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		return "", err
	}
	defer closeIn()
	data, err := io.ReadAll(in)
	return string(data), err
}

// say prints one of patch's progress lines unless -s.
func (r *patchRun) say(s string) {
	if !r.cfg.silent {
		r.t.writeString(s)
	}
}

// abs resolves a name against -d's directory.
func (r *patchRun) abs(name string) string {
	return Join(r.t.abs(r.cfg.dir), name)
}

// exists reports a regular file (or a link to one) at name.
func (r *patchRun) exists(name string) bool {
	if name == "" || name == "/dev/null" {
		return false
	}
	info, err := r.t.env.FS.Stat(r.abs(name))
	return err == nil && !info.IsDir()
}

// target picks the file a patch applies to, as GNU patch does: ORIGFILE
// if given, else the old or new name (after -p) that exists; a creation
// uses the new name.
func (r *patchRun) target(p *filePatch) (name string, creating bool) {
	if r.cfg.target != "" {
		return r.cfg.target, false
	}
	strip := func(n string) string {
		if n == "/dev/null" {
			return n
		}
		if r.cfg.strip >= 0 {
			return stripPath(n, r.cfg.strip)
		}
		// Without -p, GNU patch keeps only the base name.
		return n[strings.LastIndexByte(n, '/')+1:]
	}
	oldName, newName := strip(p.oldName), strip(p.newName)
	if r.cfg.reverse {
		oldName, newName = newName, oldName
	}
	switch {
	case r.exists(oldName):
		return oldName, false
	case r.exists(newName):
		return newName, false
	case oldName == "/dev/null" || (len(p.hunks) > 0 && p.hunks[0].oldStart == 0 && p.hunks[0].oldLen == 0):
		return newName, true
	}
	return "", false
}

// file applies one file's hunks.
func (r *patchRun) file(p *filePatch) {
	name, creating := r.target(p)
	if name == "" {
		r.noFile(p)
		return
	}
	lines, noEOL, err := r.readLines(name, creating)
	if err != nil {
		r.t.rawStderr("patch: **** Can't open file " + name + " : " + errText(err) + "\n")
		r.status = 2
		return
	}
	if r.cfg.dryRun {
		r.say("checking file " + name + "\n")
	} else if r.cfg.output != "" {
		r.say("patching file " + r.cfg.output + " (read from " + name + ")\n")
	} else {
		r.say("patching file " + name + "\n")
	}
	hunks := p.hunks
	if r.cfg.reverse {
		hunks = make([]*patchHunk, len(p.hunks))
		for i, h := range p.hunks {
			hunks[i] = h.reversed()
		}
	}
	a := &patchApply{lines: lines, noEOL: noEOL, fuzz: r.cfg.fuzz}
	if !r.orientation(a, hunks) {
		r.reject(name, p, hunks, hunks, true)
		return
	}
	var failed []*patchHunk
	for i, h := range hunks {
		pos, fuzz, ok := a.place(h)
		if !ok {
			r.say("Hunk #" + strconv.Itoa(i+1) + " FAILED at " + strconv.Itoa(h.newStart+a.offset) + ".\n")
			failed = append(failed, h)
			a.mismatch = true
			continue
		}
		r.sayApplied(i+1, h, pos, fuzz, a)
	}
	r.write(name, p, a)
	if len(failed) > 0 {
		r.reject(name, p, hunks, failed, false)
	}
}

// sayApplied reports a hunk that applied away from its line or with fuzz.
func (r *patchRun) sayApplied(n int, h *patchHunk, pos, fuzz int, a *patchApply) {
	offset := pos + 1 - max(h.oldStart, 1)
	if h.oldLen == 0 {
		offset = pos - h.oldStart
	}
	if offset == 0 && fuzz == 0 {
		return
	}
	a.mismatch = true
	msg := "Hunk #" + strconv.Itoa(n) + " succeeded at " + strconv.Itoa(h.newStart+offset)
	if fuzz > 0 {
		msg += " with fuzz " + strconv.Itoa(fuzz)
	}
	if offset != 0 {
		unit := " lines"
		if offset == 1 {
			unit = " line"
		}
		msg += " (offset " + strconv.Itoa(offset) + unit + ")"
	}
	r.say(msg + ".\n")
}

// orientation decides what to do when the first hunk applies only the
// other way round (a reversed or already applied patch): it returns
// false when the file is skipped.
func (r *patchRun) orientation(a *patchApply, hunks []*patchHunk) bool {
	if len(hunks) == 0 {
		return true
	}
	probe := &patchApply{lines: a.lines, fuzz: 0}
	if _, _, ok := probe.find(hunks[0], 0); ok {
		return true
	}
	if _, _, ok := probe.find(hunks[0].reversed(), 0); !ok || len(hunks[0].oldSide()) == 0 {
		return true
	}
	detected := "Reversed (or previously applied) patch detected!"
	question := "  Assume -R? [n] \n"
	if r.cfg.reverse {
		detected, question = "Unreversed patch detected!", "  Ignore -R? [n] \n"
	}
	switch {
	case r.cfg.forward:
		r.say(detected + "  Skipping patch.\n")
		return false
	case r.cfg.force:
		r.say(detected + "  Applying it anyway.\n")
		return true
	case r.cfg.batch:
		r.say(detected + "  Assuming -R.\n")
		for i := range hunks {
			hunks[i] = hunks[i].reversed()
		}
		a.mismatch = true
		return true
	}
	r.say(detected + question + "Apply anyway? [n] \nSkipping patch.\n")
	return false
}

// noFile reports a patch whose file cannot be found.
func (r *patchRun) noFile(p *filePatch) {
	r.t.writeString("can't find file to patch at input line " + strconv.Itoa(p.headerAt+2) + "\n")
	if r.cfg.strip < 0 {
		r.t.writeString("Perhaps you should have used the -p or --strip option?\n")
	} else {
		r.t.writeString("Perhaps you used the wrong -p or --strip option?\n")
	}
	r.t.writeString("The text leading up to this was:\n--------------------------\n")
	for _, l := range p.leading {
		r.t.writeString("|" + l + "\n")
	}
	r.t.writeString("|--- " + p.oldName + p.oldStamp + "\n|+++ " + p.newName + p.newStamp + "\n--------------------------\n")
	r.t.writeString("File to patch: \nSkip this patch? [y] \nSkipping patch.\n")
	n := len(p.hunks)
	r.t.writeString(strconv.Itoa(n) + " out of " + strconv.Itoa(n) + " hunk" + plural(n) + " ignored\n")
	r.status = max(r.status, 1)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// readLines reads the file to patch (nothing for one being created).
func (r *patchRun) readLines(name string, creating bool) ([]string, bool, error) {
	if creating && !r.exists(name) {
		return nil, false, nil
	}
	f, err := r.t.env.FS.Open(r.abs(name))
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, false, err
	}
	text := string(data)
	noEOL := text != "" && !strings.HasSuffix(text, "\n")
	text = strings.TrimSuffix(text, "\n")
	if text == "" && !noEOL {
		return nil, false, nil
	}
	return strings.Split(text, "\n"), noEOL, nil
}

// write stores the patched text (and the .orig backup a mismatch earns),
// or removes a file the patch emptied away.
func (r *patchRun) write(name string, p *filePatch, a *patchApply) {
	if r.cfg.dryRun {
		return
	}
	out, noEOL := a.result()
	text := strings.Join(out, "\n")
	if len(out) > 0 && !noEOL {
		text += "\n"
	}
	dest := name
	if r.cfg.output != "" {
		dest = r.cfg.output
	}
	if (r.cfg.backup || (a.mismatch && !r.cfg.noBackupMismatch)) && r.cfg.output == "" && r.exists(name) {
		orig := strings.Join(a.lines, "\n")
		if len(a.lines) > 0 && !a.noEOL {
			orig += "\n"
		}
		r.store(name+".orig", orig)
	}
	deleting := p.newName == "/dev/null" && !r.cfg.reverse || p.oldName == "/dev/null" && r.cfg.reverse
	if text == "" && (deleting || r.cfg.removeEmpty) && r.cfg.output == "" {
		if err := r.t.env.FS.Remove(r.abs(dest)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			r.t.rawStderr("patch: **** Can't remove file " + dest + " : " + errText(err) + "\n")
			r.status = 2
		}
		return
	}
	created := r.cfg.output != "" && !r.exists(dest)
	r.store(dest, text)
	if created {
		// GNU patch writes -o's new file through a private temporary.
		r.t.env.FS.Chmod(r.abs(dest), 0o600)
	}
}

// store writes a file through the op door.
func (r *patchRun) store(name, text string) {
	f, err := r.t.env.FS.OpenFile(r.abs(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
	if err == nil {
		_, err = io.WriteString(f, text)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		r.t.rawStderr("patch: **** Can't create file " + name + " : " + errText(err) + "\n")
		r.status = 2
	}
}

// reject saves failed hunks to NAME.rej and says so.
func (r *patchRun) reject(name string, p *filePatch, all, failed []*patchHunk, ignored bool) {
	r.status = max(r.status, 1)
	verb := "FAILED"
	if ignored {
		verb = "ignored"
	}
	msg := strconv.Itoa(len(failed)) + " out of " + strconv.Itoa(len(all)) + " hunk" + plural(len(all)) + " " + verb
	if r.cfg.dryRun {
		r.say(msg + "\n")
		return
	}
	r.say(msg + " -- saving rejects to file " + name + ".rej\n")
	oldName, newName := p.oldName, p.newName
	if r.cfg.strip >= 0 {
		oldName, newName = stripPath(oldName, r.cfg.strip), stripPath(newName, r.cfg.strip)
	}
	var b strings.Builder
	b.WriteString("--- " + oldName + p.oldStamp + "\n+++ " + newName + p.newStamp + "\n")
	for _, h := range failed {
		b.WriteString(h.header + "\n")
		for _, l := range h.lines {
			b.WriteString(string(l.op) + l.text + "\n")
		}
	}
	r.store(name+".rej", b.String())
}
