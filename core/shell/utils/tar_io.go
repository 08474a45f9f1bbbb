package utils

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"time"
)

// tarRecord is GNU tar's record size: an archive is padded to a multiple.
const tarRecord = 10240

// tarSafeName strips what GNU tar strips from a member name (safer_name_
// suffix): everything up to the last ".." component and leading slashes,
// saying so once per prefix. what is "member names" or "hard link
// targets".
func tarSafeName(t *tool, cfg *tarConfig, name, what string) string {
	if cfg.absolute {
		return name
	}
	prefix := 0
	for p := 0; p < len(name); {
		if strings.HasPrefix(name[p:], "..") && (p+2 == len(name) || name[p+2] == '/') {
			prefix = p + 2
		}
		for p < len(name) {
			c := name[p]
			p++
			if c == '/' {
				break
			}
		}
	}
	for prefix < len(name) && name[prefix] == '/' {
		prefix++
	}
	if prefix > 0 {
		key := what + "\x00" + name[:prefix]
		if !cfg.announced[key] {
			cfg.announced[key] = true
			t.warn("Removing leading `" + name[:prefix] + "' from " + what)
		}
	}
	if prefix == len(name) {
		return "."
	}
	return name[prefix:]
}

// tarHasDotDot reports a ".." component.
func tarHasDotDot(name string) bool {
	for _, c := range strings.Split(name, "/") {
		if c == ".." {
			return true
		}
	}
	return false
}

// tarFatal reports an error tar does not go on after.
func tarFatal(t *tool, cfg *tarConfig, msg string) {
	t.warn(msg)
	t.warn("Error is not recoverable: exiting now")
	cfg.fatal = true
}

// tarBase is the directory names are relative to (-C, else the cwd).
func (cfg *tarConfig) base(t *tool) string {
	if cfg.dir != "" {
		return t.abs(cfg.dir)
	}
	return t.env.Dir
}

// tarCreate writes an archive of the named files.
func tarCreate(t *tool, cfg *tarConfig) {
	if len(cfg.names) == 0 {
		t.warn("Cowardly refusing to create an empty archive")
		t.rawStderr("Try 'tar --help' or 'tar --usage' for more information.\n")
		cfg.usage = true
		return
	}
	var out io.Writer = t.out
	var closeOut func() error
	verbose := io.Writer(t.out)
	if cfg.archive != "-" {
		f, err := t.env.FS.OpenFile(t.abs(cfg.archive), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o666)
		if err != nil {
			tarFatal(t, cfg, cfg.archive+": Cannot open: "+errText(err))
			return
		}
		bw := bufio.NewWriter(f)
		out, closeOut = bw, func() error {
			err := bw.Flush()
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		}
	} else {
		verbose = t.env.Stderr
	}
	var zw *gzip.Writer
	if cfg.gzip {
		zw, _ = gzip.NewWriterLevel(out, gzip.DefaultCompression)
		zw.OS = 3
		out = zw
	}
	cw := &countWriter{w: out}
	tw := tar.NewWriter(cw)
	c := &tarCreator{t: t, cfg: cfg, tw: tw, verbose: verbose}
	for _, name := range cfg.names {
		if t.stopped() {
			break
		}
		member := tarSafeName(t, cfg, name, "member names")
		c.add(path.Join(cfg.base(t), name), name, member)
	}
	err := tw.Close()
	if pad := cw.n % tarRecord; err == nil && pad != 0 {
		_, err = cw.Write(make([]byte, tarRecord-pad))
	}
	if zw != nil && err == nil {
		err = zw.Close()
	}
	if closeOut != nil {
		if cerr := closeOut(); err == nil {
			err = cerr
		}
	}
	if err != nil && !t.broken() {
		tarFatal(t, cfg, cfg.archive+": Cannot write: "+errText(err))
	}
}

// tarCreator adds files to an archive.
type tarCreator struct {
	t       *tool
	cfg     *tarConfig
	tw      *tar.Writer
	verbose io.Writer
}

// excluded applies --exclude to a member: its whole name or any of its
// components.
func (c *tarCreator) excluded(member string) bool {
	for _, pat := range c.cfg.excludes {
		pat = strings.TrimSuffix(pat, "/")
		if fnmatch(pat, member, fnmatchFlags{}) {
			return true
		}
		for _, part := range strings.Split(member, "/") {
			if fnmatch(pat, part, fnmatchFlags{}) {
				return true
			}
		}
	}
	return false
}

// add archives one path (abs on the VFS, shown as name in messages)
// under the member name, directories with everything below.
func (c *tarCreator) add(abs, name, member string) {
	t, fsys := c.t, c.t.env.FS
	if c.excluded(member) || t.stopped() {
		return
	}
	info, err := fsys.Lstat(abs)
	if err != nil {
		t.warn(name + ": Cannot stat: " + errText(err))
		c.cfg.failed = true
		return
	}
	hdr := &tar.Header{Name: member, Mode: int64(info.Mode().Perm()), ModTime: info.ModTime().Truncate(time.Second),
		Uname: "root", Gname: "root", Format: tar.FormatGNU}
	switch {
	case info.IsDir():
		hdr.Typeflag, hdr.Name = tar.TypeDir, strings.TrimSuffix(member, "/")+"/"
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := fsys.Readlink(abs)
		if err != nil {
			t.warn(name + ": Cannot readlink: " + errText(err))
			c.cfg.failed = true
			return
		}
		hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, target
	case info.Mode().IsRegular():
		hdr.Typeflag, hdr.Size = tar.TypeReg, info.Size()
	default:
		t.warn(name + ": socket ignored")
		return
	}
	if c.cfg.verbose {
		io.WriteString(c.verbose, hdr.Name+"\n")
	}
	if err := c.tw.WriteHeader(hdr); err != nil {
		t.warn(name + ": Cannot add: " + err.Error())
		c.cfg.failed = true
		return
	}
	if hdr.Typeflag == tar.TypeReg {
		c.copyFile(abs, name, hdr.Size)
	}
	if hdr.Typeflag != tar.TypeDir {
		return
	}
	list, err := fsys.ReadDir(abs)
	if err != nil {
		t.warn(name + ": Cannot open: " + errText(err))
		c.cfg.failed = true
		return
	}
	for _, ent := range list {
		prefix := strings.TrimSuffix(member, "/") + "/"
		if member == "." {
			prefix = "./"
		}
		c.add(path.Join(abs, ent.Name()), path.Join(name, ent.Name()), prefix+ent.Name())
	}
}

// copyFile writes a regular file's bytes, padded with zeros when it
// shrank while being read, as tar does.
func (c *tarCreator) copyFile(abs, name string, size int64) {
	f, err := c.t.env.FS.Open(abs)
	if err != nil {
		c.t.warn(name + ": Cannot open: " + errText(err))
		c.cfg.failed = true
		c.tw.Write(make([]byte, size))
		return
	}
	defer f.Close()
	n, err := io.Copy(c.tw, io.LimitReader(ctxReader(c.t, f), size))
	if err != nil && !errors.Is(err, tar.ErrWriteTooLong) {
		c.t.warn(name + ": Read error: " + errText(err))
		c.cfg.failed = true
	}
	if n < size {
		c.tw.Write(make([]byte, size-n))
	}
}

// tarInput reads the whole archive (-f or stdin), gunzipped when it is
// gzip-compressed; nil after a fatal error.
func tarInput(t *tool, cfg *tarConfig) []byte {
	var in io.Reader = t.stdin()
	if cfg.archive != "-" {
		f, err := t.env.FS.Open(t.abs(cfg.archive))
		if err != nil {
			tarFatal(t, cfg, cfg.archive+": Cannot open: "+errText(err))
			return nil
		}
		defer f.Close()
		in = f
	}
	data, err := readAllCtx(t, in)
	if err != nil {
		tarFatal(t, cfg, cfg.archive+": Read error: "+errText(err))
		return nil
	}
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			// The buffer's capacity is charged, the old one too while it
			// doubles: a bytes.Buffer charged by the bytes read held up to
			// twice the budget before the line ended.
			data, err = readAllCtx(t, zr)
		}
		if err != nil {
			t.rawStderr(gzipError("stdin", err))
			tarFatal(t, cfg, "Child returned status 1")
			return nil
		}
	} else if len(data) >= 4 && string(data[:3]) == "BZh" && data[3] >= '1' && data[3] <= '9' && !cfg.gzip {
		return tarBunzip(t, cfg, data)
	} else if cfg.gzip {
		t.rawStderr("\ngzip: stdin: not in gzip format\n")
		tarFatal(t, cfg, "Child returned status 1")
		return nil
	} else if cfg.bzip2 {
		t.rawStderr("bzip2: (stdin) is not a bzip2 file.\n")
		tarFatal(t, cfg, "Child returned status 2")
		return nil
	}
	return data
}

// tarBunzip decompresses a bzip2 archive (-j, or found by its magic), its
// damage reported as bzip2 reports it to tar.
func tarBunzip(t *tool, cfg *tarConfig, data []byte) []byte {
	if t.env.Grow(4<<20) != nil { // the decoder's block tables
		return nil
	}
	defer t.env.Grow(-4 << 20)
	data, err := readAllCtx(t, bzip2.NewReader(bytes.NewReader(data)))
	var se bzip2.StructuralError
	switch {
	case err == nil, errors.As(err, &se) && strings.Contains(string(se), "continuation file"):
		return data
	case t.stopped():
		return nil
	}
	bzip2Damaged(t, &bzip2Config{prog: "bzip2"}, "(stdin)", "(stdout)", errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF))
	tarFatal(t, cfg, "Child returned status 2")
	return nil
}

// streamOut reads a member that is written out as it is inflated (unzip
// -p, -t): nothing is kept, so nothing is charged; it stops with the line.
type streamOut struct {
	t *tool
	r io.Reader
}

func (s *streamOut) Read(p []byte) (int, error) {
	if s.t.stopped() {
		return 0, io.ErrClosedPipe
	}
	return s.r.Read(p)
}

// tarBudget charges decompressed bytes to the line's memory budget.
type tarBudget struct {
	t *tool
	r io.Reader
}

func (b *tarBudget) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		if gerr := b.t.env.Grow(int64(n)); gerr != nil {
			return n, gerr
		}
	}
	if err == nil && b.t.stopped() {
		err = io.ErrClosedPipe
	}
	return n, err
}

// tarMember is one archive entry read for listing or extraction.
type tarMember struct {
	hdr  *tar.Header
	data []byte
}

// tarMembers parses the archive; a damaged one is said as tar says it.
func tarMembers(t *tool, cfg *tarConfig, data []byte) []tarMember {
	tr := tar.NewReader(bytes.NewReader(data))
	var list []tarMember
	for !t.stopped() {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			if len(list) == 0 {
				t.warn("This does not look like a tar archive")
				cfg.failed = true
				return list
			}
			tarFatal(t, cfg, "Unexpected EOF in archive")
			return list
		}
		var body []byte
		if cfg.mode != 't' && hdr.Typeflag == tar.TypeReg {
			// The size is the header's word, and a sparse member's is
			// what its holes expand to: a 10 KB archive may claim 30 GB.
			// The line's budget is asked before anything is made.
			if hdr.Size < 0 || t.env.Grow(hdr.Size) != nil {
				cfg.failed, cfg.fatal = true, true
				return nil
			}
			body = make([]byte, hdr.Size)
			if _, err = io.ReadFull(tr, body); err != nil {
				tarFatal(t, cfg, "Unexpected EOF in archive")
				return list
			}
		}
		list = append(list, tarMember{hdr: hdr, data: body})
	}
	return list
}

// tarModeString is ls's mode column with tar's type letters.
func tarModeString(hdr *tar.Header) string {
	kind := map[byte]byte{tar.TypeDir: 'd', tar.TypeSymlink: 'l', tar.TypeLink: 'h', tar.TypeChar: 'c', tar.TypeBlock: 'b', tar.TypeFifo: 'p'}[hdr.Typeflag]
	if kind == 0 {
		kind = '-'
	}
	b := []byte{kind}
	m := hdr.Mode
	for i, c := range "rwxrwxrwx" {
		if m&(1<<(8-i)) != 0 {
			b = append(b, byte(c))
		} else {
			b = append(b, '-')
		}
	}
	setid := func(pos int, bit int64, on, off byte) {
		if m&bit != 0 {
			if b[pos] == 'x' {
				b[pos] = on
			} else {
				b[pos] = off
			}
		}
	}
	setid(3, 0o4000, 's', 'S')
	setid(6, 0o2000, 's', 'S')
	setid(9, 0o1000, 't', 'T')
	return string(b)
}

// tarListLine is tar -tv's line; width is the user/group/size column's
// width so far, which grows as tar's does.
func tarListLine(t *tool, hdr *tar.Header, width *int) string {
	user, group := hdr.Uname, hdr.Gname
	if user == "" {
		user = strconv.Itoa(hdr.Uid)
	}
	if group == "" {
		group = strconv.Itoa(hdr.Gid)
	}
	size := strconv.FormatInt(hdr.Size, 10)
	pad := len(user) + 1 + len(group) + 1 + len(size)
	if pad > *width {
		*width = pad
	}
	line := tarModeString(hdr) + " " + user + "/" + group + " " + strings.Repeat(" ", *width-pad) + size + " " +
		hdr.ModTime.In(t.location()).Format("2006-01-02 15:04") + " " + hdr.Name
	switch hdr.Typeflag {
	case tar.TypeSymlink:
		line += " -> " + hdr.Linkname
	case tar.TypeLink:
		line += " link to " + hdr.Linkname
	}
	return line + "\n"
}
