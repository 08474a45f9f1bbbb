package utils

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const fileHelp = `Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

  -b, --brief                do not prepend filenames to output lines
  -L, --dereference          follow symlinks
  -h, --no-dereference       don't follow symlinks (default)
      --help                 display this help and exit
  -v, --version              output version information and exit

This file knows a small set of types: empty, directory, symbolic link,
shell and other scripts, JSON, XML, HTML, C source (as libmagic finds
it: a main( then ) and { on complete lines), PDF, PNG, JPEG, GIF, gzip, zip,
ELF, ASCII and UTF-8 text (with their line terminators), and data.
`

var fileOpts = []optDef{
	{short: 'b', long: "brief"},
	{short: 'L', long: "dereference"},
	{short: 'h', long: "no-dereference"},
	{short: 'v'},
}

// fileUtility makes the file utility (see builtins).
func fileUtility(string) *Utility {
	return &Utility{
		Name:     "file",
		Run:      runFile,
		Operands: plainOperands(fileOpts, parseMode{}, Read),
		// file reports an unreadable operand on stdout and still exits 0.
		OperandExit: 0,
		Voice:       func(arg, msg string) string { return arg + ": cannot open `" + arg + "' (" + msg + ")\n" },
		Help:        fileHelp,
	}
}

func runFile(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "file", defs: fileOpts, usageExit: 1, help: fileHelp})
	if done {
		return status, nil
	}
	brief, deref := false, false
	for _, o := range args.opts {
		switch o.name {
		case "brief":
			brief = true
		case "dereference":
			deref = true
		case "no-dereference":
			deref = false
		case "v":
			t.writeString("file-5.44\nmagic file from gatehouse (built in)\n")
			return t.end(0)
		}
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		t.rawStderr("Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding]\n" +
			"            [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>]\n" +
			"            [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet]\n" +
			"            <file> ...\n       file -C [-m <magicfiles>]\n       file [--help]\n")
		return t.end(1)
	}
	width := 0
	for _, n := range names {
		if n == "-" {
			n = "/dev/stdin"
		}
		width = max(width, len(n))
	}
	for _, name := range names {
		if t.stopped() {
			break
		}
		var desc string
		if name == "-" {
			name = "/dev/stdin"
			data, _ := readAllCtx(t, t.stdin())
			desc = fileClassify(data)
		} else {
			desc = fileDescribe(e, name, deref)
		}
		if brief {
			t.writeString(desc + "\n")
			continue
		}
		t.writeString(name + ":" + strings.Repeat(" ", width-len(name)+1) + desc + "\n")
	}
	return t.end(0)
}

// fileDescribe names one operand's type in file(1)'s words.
func fileDescribe(e *Env, name string, deref bool) string {
	p := e.Abs(name)
	info, err := statOperand(e, name, deref)
	if err != nil {
		return "cannot open `" + name + "' (" + errText(err) + ")"
	}
	m := info.Mode()
	switch {
	case m&fs.ModeSymlink != 0:
		target, _ := e.FS.Readlink(p)
		if _, err := e.FS.Stat(p); err != nil {
			return "broken symbolic link to " + target
		}
		return "symbolic link to " + target
	case m.IsDir():
		return "directory"
	case m&fs.ModeCharDevice != 0:
		if n, ok := devNumbers.Get()[info.Name()]; ok {
			return "character special (" + strings.ReplaceAll(n, ", ", "/") + ")"
		}
		return "character special"
	case m&fs.ModeNamedPipe != 0:
		return "fifo (named pipe)"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	f, err := e.FS.Open(p)
	if err != nil {
		return "cannot open `" + name + "' (" + errText(err) + ")"
	}
	head := make([]byte, 64*1024)
	n, rerr := io.ReadFull(f, head)
	var tail []byte
	if rerr == nil && bytes.HasPrefix(head, []byte("\x1f\x8b")) {
		// gzip's trailer holds the original size: read the last 4 bytes.
		if _, err := f.Seek(-4, io.SeekEnd); err == nil {
			tail = make([]byte, 4)
			if _, err := io.ReadFull(f, tail); err != nil {
				tail = nil
			}
		}
	}
	f.Close()
	if rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF {
		return "cannot read `" + name + "' (" + errText(rerr) + ")"
	}
	if tail == nil && n >= 4 {
		tail = head[n-4 : n]
	}
	if bytes.HasPrefix(head[:n], []byte("\x1f\x8b")) && n >= 10 {
		return fileGzip(e, head[:n], tail)
	}
	if n >= 265 && string(head[257:265]) == "ustar  \x00" {
		return "POSIX tar archive (GNU)"
	}
	if n >= 263 && string(head[257:263]) == "ustar\x00" {
		return "POSIX tar archive"
	}
	return fileClassify(head[:n])
}

// fileGzip is file's gzip line: the header's flags, name, time, level
// hint and system, and the trailer's size.
func fileGzip(e *Env, head, tail []byte) string {
	var b strings.Builder
	b.WriteString("gzip compressed data")
	switch method := head[2]; {
	case method < 8:
		b.WriteString(", reserved method")
	case method > 8:
		b.WriteString(", unknown method")
	}
	flags := head[3]
	if flags&0x01 != 0 {
		b.WriteString(", ASCII")
	}
	if flags&0x02 != 0 {
		b.WriteString(", has CRC")
	}
	if flags&0x04 != 0 {
		b.WriteString(", extra field")
	}
	if flags&0x0c == 0x08 {
		name := head[10:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		b.WriteString(", was \"" + string(name) + "\"")
	}
	if flags&0x10 != 0 {
		b.WriteString(", has comment")
	}
	if flags&0x20 != 0 {
		b.WriteString(", encrypted")
	}
	if mtime := binary.LittleEndian.Uint32(head[4:8]); mtime > 0 {
		loc := dateZone(e.Getenv("TZ"))
		b.WriteString(", last modified: " + time.Unix(int64(mtime), 0).In(loc).Format("Mon Jan _2 15:04:05 2006"))
	}
	switch head[8] {
	case 2:
		b.WriteString(", max compression")
	case 4:
		b.WriteString(", max speed")
	}
	if os, ok := map[byte]string{0: "FAT filesystem (MS-DOS, OS/2, NT)", 1: "Amiga", 2: "VMS", 3: "Unix", 5: "Atari",
		6: "HPFS filesystem (OS/2, NT)", 7: "MacOS", 10: "Tops/20", 11: "NTFS filesystem (NT)", 12: "QDOS",
		13: "Acorn RISCOS"}[head[9]]; ok {
		b.WriteString(", from " + os)
	}
	if len(tail) == 4 {
		b.WriteString(", original size modulo 2^32 " + strconv.FormatUint(uint64(binary.LittleEndian.Uint32(tail)), 10))
	}
	return b.String()
}

// fileMagic are the binary signatures recognised at offset 0.
var fileMagic = []struct {
	prefix string
	desc   string
}{
	{"\x89PNG\r\n\x1a\n", "PNG image data"},
	{"\xff\xd8\xff", "JPEG image data"},
	{"GIF87a", "GIF image data, version 87a"},
	{"GIF89a", "GIF image data, version 89a"},
	{"\x1f\x8b", "gzip compressed data"},
	{"PK\x03\x04", "Zip archive data"},
	{"\x7fELF", "ELF"},
	{"BZh", "bzip2 compressed data"},
	{"\xfd7zXZ\x00", "XZ compressed data"},
	{"SQLite format 3\x00", "SQLite 3.x database"},
}

func fileClassify(data []byte) string {
	if len(data) == 0 {
		return "empty"
	}
	for _, m := range fileMagic {
		if bytes.HasPrefix(data, []byte(m.prefix)) {
			return m.desc
		}
	}
	if v, ok := bytes.CutPrefix(data, []byte("%PDF-")); ok {
		end := bytes.IndexAny(v, "\r\n ")
		if end < 0 || end > 8 {
			end = min(3, len(v))
		}
		return "PDF document, version " + string(v[:end])
	}
	text, ok := fileTextKind(data)
	if !ok {
		return "data"
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case bytes.HasPrefix(data, []byte("#!")):
		script := fileScript(data)
		if script == "Node.js script" {
			// file's magic words this one the other way round.
			return script + " executable, " + text + fileTerminators(data)
		}
		return script + ", " + text + " executable" + fileTerminators(data)
	case (bytes.HasPrefix(trimmed, []byte("{")) || bytes.HasPrefix(trimmed, []byte("["))) && json.Valid(data):
		return "JSON text data"
	case bytes.HasPrefix(trimmed, []byte("<?xml")):
		return "XML 1.0 document, " + text + fileTerminators(data)
	case fileLooksHTML(trimmed):
		return "HTML document, " + text + fileTerminators(data)
	case fileLooksCSV(data):
		return "CSV text"
	case fileLooksC(data):
		return "C source, " + text + fileTerminators(data)
	}
	return text + fileTerminators(data)
}

// fileLooksC reports whether text is what file 5.44's magic calls C
// source on the way a Rust or C program starts: "main(" starting at one of
// the first 8193 offsets (a search/8192), then, anywhere after it, a ')' followed by a '{' with only white
// space between (`fn main() {`, `int main(void)\n{`). libmagic's regex
// reads complete lines only, so the '{' must come before the last newline.
func fileLooksC(data []byte) bool {
	i := bytes.Index(data[:min(len(data), 8192+len("main("))], []byte("main("))
	if i < 0 {
		return false
	}
	rest := data[i+len("main("):]
	rest = rest[:max(0, bytes.LastIndexByte(rest, '\n'))]
	for j := bytes.IndexByte(rest, ')'); j >= 0; {
		k := j + 1
		for k < len(rest) && strings.IndexByte(" \t\n\r\v\f", rest[k]) >= 0 {
			k++
		}
		if k < len(rest) && rest[k] == '{' {
			return true
		}
		next := bytes.IndexByte(rest[k:], ')')
		if next < 0 {
			break
		}
		j = k + next
	}
	return false
}

// csvLines is how many lines file reads before it calls text CSV.
const csvLines = 10

// fileLooksCSV reports whether text is CSV as file 5.44 judges it: every
// line of the first ten (or of all, when there are more than two) has the
// same number of commas, at least one, quoted fields (with "" inside)
// counting as one.
func fileLooksCSV(data []byte) bool {
	want, commas, lines := -1, 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = csvQuoteEnd(data, i+1)
		case ',':
			commas++
		case '\n':
			lines++
			if lines == csvLines {
				return want > 0 && want == commas
			}
			switch {
			case want < 0 && commas == 0:
				return false
			case want < 0:
				want = commas
			case want != commas:
				return false
			}
			commas = 0
		}
	}
	return want > 0 && lines > 2
}

// csvQuoteEnd returns the index of the quote that closes a field opened
// just before i ("" inside stands for one quote), or the end of data.
func csvQuoteEnd(data []byte, i int) int {
	for ; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		if i+1 < len(data) && data[i+1] == '"' {
			i++
			continue
		}
		return i
	}
	return len(data)
}

// fileTextKind says "ASCII text" or "Unicode text, UTF-8 text"; ok is
// false for binary data.
func fileTextKind(data []byte) (string, bool) {
	ascii := true
	for _, c := range data {
		switch {
		case c == 0:
			return "", false
		case c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\b' && c != 0x1b && c != '\v':
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	if ascii {
		return "ASCII text", true
	}
	if utf8.Valid(data) || utf8.Valid(data[:fileLastRuneStart(data)]) {
		return "Unicode text, UTF-8 text", true
	}
	return "ISO-8859 text", true
}

// fileLastRuneStart trims a UTF-8 sequence cut by the 64 KiB window.
func fileLastRuneStart(data []byte) int {
	for i := len(data) - 1; i >= 0 && i >= len(data)-4; i-- {
		if utf8.RuneStart(data[i]) {
			return i
		}
	}
	return len(data)
}

// fileTerminators describes the line endings as file does.
func fileTerminators(data []byte) string {
	crlf := bytes.Count(data, []byte("\r\n"))
	lf := bytes.Count(data, []byte("\n")) - crlf
	cr := bytes.Count(data, []byte("\r")) - crlf
	var notes []string
	longest, cur := 0, 0
	for _, c := range data {
		if c == '\n' || c == '\r' {
			cur = 0
			continue
		}
		cur++
		longest = max(longest, cur)
	}
	if longest > 300 {
		notes = append(notes, "with very long lines ("+strconv.Itoa(longest)+")")
	}
	switch {
	case crlf > 0 && lf == 0 && cr == 0:
		notes = append(notes, "with CRLF line terminators")
	case cr > 0 && lf == 0 && crlf == 0:
		notes = append(notes, "with CR line terminators")
	case crlf > 0 || (cr > 0 && lf > 0):
		notes = append(notes, "with CRLF, LF line terminators")
	case lf == 0:
		notes = append(notes, "with no line terminators")
	}
	if len(notes) == 0 {
		return ""
	}
	return ", " + strings.Join(notes, ", ")
}

// fileScript names the interpreter of a #! line.
func fileScript(data []byte) string {
	line := string(data[2:])
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return "a script"
	}
	interp := fields[0]
	if baseName(interp, "") == "env" && len(fields) > 1 {
		interp = fields[1]
	}
	switch base := baseName(interp, ""); {
	case base == "sh" || base == "dash":
		return "POSIX shell script"
	case base == "bash":
		return "Bourne-Again shell script"
	case base == "zsh":
		return "Paul Falstad's zsh script"
	case strings.HasPrefix(base, "python"):
		return "Python script"
	case strings.HasPrefix(base, "perl"):
		return "Perl script text"
	case strings.HasPrefix(base, "ruby"):
		return "Ruby script"
	case base == "node" || base == "nodejs":
		return "Node.js script"
	case base == "awk" || base == "gawk":
		return "awk or perl script"
	}
	return "a " + strings.Join(fields, " ") + " script"
}

func fileLooksHTML(trimmed []byte) bool {
	lower := strings.ToLower(string(trimmed[:min(len(trimmed), 64)]))
	return strings.HasPrefix(lower, "<!doctype html") || strings.HasPrefix(lower, "<html")
}
