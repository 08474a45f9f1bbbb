package utils

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// zipRun is one zip command.
type zipRun struct {
	t       *tool
	a       *zipArgs
	name    string // the archive, with .zip added
	old     *zip.Reader
	adds    []*zipAdd
	seen    map[string]bool
	matched int
	skipped int
	status  int
}

// zipAdd is one entry to write: a file, a directory, or standard input.
type zipAdd struct {
	entry string // its name in the archive
	path  string // where it is read from ("" for a directory, "-" for stdin)
	info  fs.FileInfo
	data  []byte // standard input's bytes
	old   bool   // it replaces an entry of the archive
}

func runZip(e *Env) (int, error) {
	t := newTool(e, "zip", zipHelp, 16)
	a, msg := zipParse(e.Args)
	switch {
	case msg == "help" || len(e.Args) == 1:
		t.writeString(zipHelp)
		return t.end(0)
	case msg != "":
		return t.end(zipFail(t, 16, "Invalid command arguments ("+msg+")"))
	case a.archive == 0:
		return t.end(zipFail(t, 16, "Invalid command arguments (nothing to select from)"))
	case zipActions(a) > 1:
		return t.end(zipFail(t, 16, "Invalid command arguments (specify just one action)"))
	}
	r := &zipRun{t: t, a: a, name: zipArchiveName(e.Args[a.archive]), seen: map[string]bool{}}
	if st := r.openOld(); st != 0 {
		return t.end(st)
	}
	if a.del {
		return t.end(r.deleteEntries())
	}
	return t.end(r.add())
}

// zipActions counts -u, -f and -d: zip takes one.
func zipActions(a *zipArgs) int {
	n := 0
	for _, on := range []bool{a.update, a.freshen, a.del} {
		if on {
			n++
		}
	}
	return n
}

// zipFail prints "zip error: msg (with zip's blank line before it)" and
// returns status.
//
// Info-ZIP prints its warnings and errors on standard output when the
// archive is not written there.
func zipFail(t *tool, status int, msg string) int {
	t.writeString("\nzip error: " + msg + "\n")
	return status
}

func (r *zipRun) warn(msg string) {
	r.t.writeString("\tzip warning: " + msg + "\n")
}

// openOld reads the archive when it exists (held whole, charged).
func (r *zipRun) openOld() int {
	info, err := r.t.env.FS.Stat(r.t.abs(r.name))
	if err != nil || info.IsDir() {
		return 0
	}
	in, closeIn, err := openOperand(r.t, r.name)
	if err != nil {
		return zipFail(r.t, 15, "Could not open "+r.name+": "+errText(err))
	}
	data, err := readAllCtx(r.t, in)
	closeIn()
	if err != nil {
		return zipFail(r.t, 11, errText(err))
	}
	if len(data) == 0 {
		return 0
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		r.warn("missing end signature--probably not a zip file (did you")
		r.warn("remember to use binary mode when you transferred it?)")
		r.warn("(if you are trying to read a damaged archive try -F)")
		return zipFail(r.t, 3, "Zip file structure invalid ("+r.name+")")
	}
	r.old = zr
	return 0
}

// deleteEntries is -d: every entry a name matches goes.
func (r *zipRun) deleteEntries() int {
	names := r.names()
	if r.old == nil {
		r.warn(r.name + " not found or empty")
	}
	gone := map[string]bool{}
	for _, n := range names {
		hit := false
		if r.old != nil {
			for _, f := range r.old.File {
				if zipMatch(n, f.Name) {
					gone[f.Name], hit = true, true
				}
			}
		}
		if !hit && !r.a.quiet {
			r.warn("name not matched: " + n)
		}
	}
	if len(gone) == 0 {
		return zipFail(r.t, 12, "Nothing to do! ("+r.name+")")
	}
	if !r.a.quiet {
		for _, f := range r.old.File {
			if gone[f.Name] {
				r.t.writeString("deleting: " + f.Name + "\n")
			}
		}
	}
	return r.write(gone)
}

// names are the operands after the archive, then -@'s lines.
func (r *zipRun) names() []string {
	var names []string
	for _, i := range r.a.names {
		names = append(names, r.t.env.Args[i])
	}
	if r.a.stdin {
		data, err := readAllCtx(r.t, r.t.stdin())
		if err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if line = strings.TrimRight(line, "\r"); line != "" {
					names = append(names, line)
				}
			}
		}
	}
	return names
}

// add is zip's default action: add or replace the entries the names
// make.
func (r *zipRun) add() int {
	if (r.a.update || r.a.freshen) && r.old == nil && !r.a.quiet {
		r.warn(r.name + " not found or empty")
	}
	for _, n := range r.names() {
		if r.t.stopped() {
			return 1
		}
		r.collect(n)
	}
	if r.matched > 0 && len(r.adds) == 0 && len(r.a.include) > 0 && r.old == nil {
		// With -i, finding nothing to take makes an empty archive, as
		// zip does (without it, or with an archive, there is nothing
		// to do).
		if !r.a.quiet {
			r.warn("zip file empty")
		}
		return r.write(nil)
	}
	if r.matched == 0 || len(r.adds) == 0 {
		// Nothing named, or everything named left out (-x, -i, a
		// directory without -r under -D); -u and -f say nothing.
		if r.a.update || r.a.freshen {
			return 12
		}
		return zipFail(r.t, 12, "Nothing to do! ("+r.name+")")
	}
	old := map[string]*zip.File{}
	if r.old != nil {
		for _, f := range r.old.File {
			old[f.Name] = f
		}
	}
	kept := r.adds[:0]
	for _, ad := range r.adds {
		f, ok := old[ad.entry]
		ad.old = ok
		switch {
		case (r.a.update || r.a.freshen) && ok && !zipNewer(ad.info.ModTime(), f.Modified):
			continue
		case r.a.freshen && !ok:
			continue
		}
		kept = append(kept, ad)
	}
	r.adds = kept
	if len(r.adds) == 0 {
		return 12
	}
	return r.write(nil)
}

// zipNewer compares as zip does, in DOS time's even seconds, odd ones
// rounded up on both sides: an entry read back from its exact timestamp
// and the file it was made from are the same age.
func zipNewer(file, entry time.Time) bool {
	return (file.Unix()+1)&^1 > (entry.Unix()+1)&^1
}

// zipEntryName is a path as zip records it: no leading / or ./.
func zipEntryName(p string, junk bool) string {
	if junk {
		return path.Base(p)
	}
	p = path.Clean(p)
	for strings.HasPrefix(p, "../") {
		p = p[3:]
	}
	p = strings.TrimLeft(p, "/")
	if p == "." || p == ".." {
		return ""
	}
	return p
}

// collect adds what one name makes: a file, a directory (and, with -r,
// what is under it), or standard input.
func (r *zipRun) collect(n string) {
	if n == "-" {
		data, err := readAllCtx(r.t, r.t.stdin())
		if err == nil {
			r.matched++
			r.push(&zipAdd{entry: "-", path: "-", data: data, info: zipStdinInfo{size: int64(len(data)), now: time.Now()}})
		}
		return
	}
	info, err := r.t.env.FS.Stat(r.t.abs(n))
	if err != nil {
		if !r.a.quiet {
			r.warn("name not matched: " + n)
		}
		return
	}
	r.matched++
	r.walk(n, info, 0)
}

func (r *zipRun) walk(p string, info fs.FileInfo, depth int) {
	entry := zipEntryName(p, r.a.junk)
	if !info.IsDir() {
		if r.t.abs(p) == r.t.abs(r.name) {
			return // the archive itself is never added to itself
		}
		if entry != "" {
			r.push(&zipAdd{entry: entry, path: p, info: info})
		}
		return
	}
	if entry != "" && !r.a.noDirs && !r.a.junk {
		r.push(&zipAdd{entry: entry + "/", info: info})
	}
	if !r.a.recurse || depth > 256 || r.t.stopped() {
		return
	}
	entries, err := r.t.env.FS.ReadDir(r.t.abs(p))
	if err != nil {
		r.warn("could not open for reading: " + p)
		return
	}
	for _, de := range entries {
		child := strings.TrimSuffix(p, "/") + "/" + de.Name()
		if p == "." {
			child = de.Name()
		}
		ci, err := r.t.env.FS.Stat(r.t.abs(child))
		if err != nil {
			continue
		}
		r.walk(child, ci, depth+1)
	}
}

// push keeps an entry the -x and -i patterns let through, once.
func (r *zipRun) push(ad *zipAdd) {
	for _, x := range r.a.exclude {
		if zipMatch(r.pattern(x), ad.entry) {
			return
		}
	}
	if len(r.a.include) > 0 {
		in := false
		for _, p := range r.a.include {
			in = in || zipMatch(r.pattern(p), ad.entry)
		}
		if !in {
			return
		}
	}
	if r.seen[ad.entry] {
		return
	}
	r.seen[ad.entry] = true
	r.adds = append(r.adds, ad)
}

// pattern is a -x or -i pattern as it applies: zip -j junks the
// directories of patterns as of names ('d/*' is then '*').
func (r *zipRun) pattern(p string) string {
	if r.a.junk {
		return p[strings.LastIndexByte(p, '/')+1:]
	}
	return p
}

// zipStdinInfo describes standard input as an entry.
type zipStdinInfo struct {
	size int64
	now  time.Time
}

func (z zipStdinInfo) Name() string       { return "-" }
func (z zipStdinInfo) Size() int64        { return z.size }
func (z zipStdinInfo) Mode() fs.FileMode  { return 0o600 }
func (z zipStdinInfo) ModTime() time.Time { return z.now }
func (z zipStdinInfo) IsDir() bool        { return false }
func (z zipStdinInfo) Sys() any           { return nil }

// write makes the new archive beside the old one and renames it over it:
// the old entries in their order (less those gone, replaced ones where
// they were), then the new ones.
func (r *zipRun) write(gone map[string]bool) int {
	fsys := r.t.env.FS
	dir := path.Dir(r.name)
	var tmp string
	var f io.WriteCloser
	for i := 0; ; i++ {
		tmp = path.Join(dir, "zi"+strconv.FormatInt(time.Now().UnixNano()%1000000+int64(i), 36))
		file, err := fsys.OpenFile(r.t.abs(tmp), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			f = file
			break
		}
		if !os.IsExist(err) || i > 100 {
			r.t.writeString("zip I/O error: " + errText(err) + "\nzip error: Could not create output file (" + r.name + ")\n")
			return 15
		}
	}
	bw := bufio.NewWriter(f)
	zw := zip.NewWriter(bw)
	level := max(r.a.level, 1)
	zw.RegisterCompressor(zip.Deflate, func(out io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(out, level)
	})
	ok := r.writeEntries(zw, gone)
	if ok {
		ok = zw.Close() == nil && bw.Flush() == nil
	}
	if cerr := f.Close(); cerr != nil {
		ok = false
	}
	if !ok || r.t.stopped() {
		fsys.Remove(r.t.abs(tmp))
		if r.status == 0 {
			r.status = 1
		}
		return r.status
	}
	if err := fsys.Rename(r.t.abs(tmp), r.t.abs(r.name)); err != nil {
		fsys.Remove(r.t.abs(tmp))
		r.t.writeString("zip I/O error: " + errText(err) + "\nzip error: Could not create output file (" + r.name + ")\n")
		return 15
	}
	if r.skipped > 0 {
		r.t.writeString("zip warning: Not all files were readable\n  files/entries read:  " +
			strconv.Itoa(len(r.adds)-r.skipped) + "  skipped:  " + strconv.Itoa(r.skipped) + "\n")
		r.status = 18
	}
	if r.a.test && !r.t.stopped() {
		r.t.writeString("test of " + r.name + " OK\n")
	}
	return r.status
}

func (r *zipRun) writeEntries(zw *zip.Writer, gone map[string]bool) bool {
	replaced := map[string]*zipAdd{}
	for _, ad := range r.adds {
		if ad.old {
			replaced[ad.entry] = ad
		}
	}
	if r.old != nil {
		for _, f := range r.old.File {
			if r.t.stopped() {
				return false
			}
			if gone[f.Name] {
				continue
			}
			if ad := replaced[f.Name]; ad != nil {
				if !r.writeEntry(zw, ad) {
					return false
				}
				continue
			}
			if zw.Copy(f) != nil {
				return false
			}
		}
	}
	for _, ad := range r.adds {
		if !ad.old && !r.writeEntry(zw, ad) {
			return false
		}
	}
	return true
}

// writeEntry adds one entry and says so: deflated when that is smaller,
// else stored, as zip decides. A file is read twice (measured, then
// written), so nothing of it is held.
func (r *zipRun) writeEntry(zw *zip.Writer, ad *zipAdd) bool {
	verb := "  adding: "
	switch {
	case ad.old && r.a.freshen:
		verb = "freshening: "
	case ad.old:
		verb = "updating: "
	}
	hdr, err := zip.FileInfoHeader(ad.info)
	if err != nil {
		return false
	}
	hdr.Name = ad.entry
	hdr.Modified = ad.info.ModTime().In(r.t.location())
	if ad.path == "" {
		hdr.Method = zip.Store
		if !r.a.quiet {
			r.t.writeString(verb + ad.entry + " (stored 0%)\n")
		}
		_, err := zw.CreateHeader(hdr)
		return err == nil
	}
	size, packed, ok := r.measure(ad)
	if !ok {
		r.skipped++
		return true
	}
	hdr.Method = zip.Deflate
	what := "deflated " + strconv.Itoa(zipPercent(size, packed)) + "%"
	if r.a.level == 0 || packed >= size {
		hdr.Method, what = zip.Store, "stored 0%"
	}
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		return false
	}
	src, done, err := r.source(ad)
	if err != nil {
		r.warn("could not open for reading: " + ad.path)
		return false
	}
	_, err = io.Copy(w, ctxReader(r.t, src))
	done()
	if err != nil {
		return false
	}
	if !r.a.quiet {
		r.t.writeString(verb + ad.entry + " (" + what + ")\n")
	}
	return true
}

// source opens what an entry is read from.
func (r *zipRun) source(ad *zipAdd) (io.Reader, func(), error) {
	if ad.path == "-" {
		return bytes.NewReader(ad.data), func() {}, nil
	}
	return openOperand(r.t, ad.path)
}

// measure reads an entry once through the compressor to learn its
// deflated size.
func (r *zipRun) measure(ad *zipAdd) (size, packed int64, ok bool) {
	src, done, err := r.source(ad)
	if err != nil {
		r.warn("could not open for reading: " + ad.path)
		r.warn(errText(err))
		return 0, 0, false
	}
	defer done()
	cw := &countWriter{w: io.Discard}
	level := max(r.a.level, 1)
	fw, _ := flate.NewWriter(cw, level)
	n, err := io.Copy(fw, ctxReader(r.t, src))
	fw.Close()
	if err != nil {
		r.warn("could not open for reading: " + ad.path)
		r.warn(errText(err))
		return 0, 0, false
	}
	return n, cw.n, true
}

// zipPercent is zip's saving, rounded as zip rounds it.
func zipPercent(n, m int64) int {
	for n > 0xffffff {
		n = (n + 0x80) >> 8
		m = (m + 0x80) >> 8
	}
	if n > m {
		return int(1+(200*(n-m)/n)) / 2
	}
	return 0
}
