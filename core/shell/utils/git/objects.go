package git

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// Commits, trees and tags are encoded and decoded here rather than with
// go-git's plumbing/object, which links an OpenPGP implementation whose
// package initialisation every start of the program would pay for.

// signature is an author, committer or tagger line.
type signature struct {
	Name, Email string
	When        time.Time
}

func (s signature) encode() string {
	return fmt.Sprintf("%s <%s> %d %s", s.Name, s.Email, s.When.Unix(), s.When.Format("-0700"))
}

func parseSignature(line string) signature {
	var s signature
	open, close := strings.LastIndexByte(line, '<'), strings.LastIndexByte(line, '>')
	if open < 0 || close < open {
		s.Name = line
		return s
	}
	s.Name = strings.TrimSpace(line[:open])
	s.Email = line[open+1 : close]
	fields := strings.Fields(line[close+1:])
	if len(fields) >= 1 {
		sec, _ := strconv.ParseInt(fields[0], 10, 64)
		loc := time.UTC
		if len(fields) >= 2 {
			loc = parseZone(fields[1])
		}
		s.When = time.Unix(sec, 0).In(loc)
	}
	return s
}

// parseZone reads "+0200" as a fixed zone of that name.
func parseZone(z string) *time.Location {
	if len(z) != 5 || (z[0] != '+' && z[0] != '-') {
		return time.UTC
	}
	h, err1 := strconv.Atoi(z[1:3])
	m, err2 := strconv.Atoi(z[3:5])
	if err1 != nil || err2 != nil {
		return time.UTC
	}
	off := (h*60 + m) * 60
	if z[0] == '-' {
		off = -off
	}
	return time.FixedZone(z, off)
}

// commit is a decoded commit object.
type commit struct {
	Hash      plumbing.Hash
	Tree      plumbing.Hash
	Parents   []plumbing.Hash
	Author    signature
	Committer signature
	Extra     []string // other header lines (encoding, gpgsig…), kept verbatim
	Message   string
}

func (c *commit) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "tree %s\n", c.Tree)
	for _, p := range c.Parents {
		fmt.Fprintf(&b, "parent %s\n", p)
	}
	fmt.Fprintf(&b, "author %s\ncommitter %s\n", c.Author.encode(), c.Committer.encode())
	for _, x := range c.Extra {
		b.WriteString(x)
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
	b.WriteString(c.Message)
	return b.Bytes()
}

func decodeCommit(h plumbing.Hash, data []byte) (*commit, error) {
	c := &commit{Hash: h}
	head, msg, _ := bytes.Cut(data, []byte("\n\n"))
	c.Message = string(msg)
	lines := strings.Split(string(head), "\n")
	for i := 0; i < len(lines); i++ {
		key, val, _ := strings.Cut(lines[i], " ")
		switch key {
		case "tree":
			c.Tree = plumbing.NewHash(val)
		case "parent":
			c.Parents = append(c.Parents, plumbing.NewHash(val))
		case "author":
			c.Author = parseSignature(val)
		case "committer":
			c.Committer = parseSignature(val)
		default:
			x := lines[i]
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") {
				i++
				x += "\n" + lines[i]
			}
			c.Extra = append(c.Extra, x)
		}
	}
	if c.Tree.IsZero() {
		return nil, errors.New("bad commit " + h.String())
	}
	return c, nil
}

// subject is the first line of the message, as git's %s shows it: the
// first paragraph with its lines joined by spaces.
func (c *commit) subject() string {
	para, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n\n")
	return strings.Join(strings.Split(strings.TrimRight(para, "\n"), "\n"), " ")
}

// body is the message after the subject's paragraph.
func (c *commit) body() string {
	_, rest, ok := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n\n")
	if !ok {
		return ""
	}
	return strings.TrimLeft(rest, "\n")
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	Name string
	Mode filemode.FileMode
	Hash plumbing.Hash
}

// treeOrder is git's tree order: a directory sorts as if its name ended
// in "/".
func treeOrder(entries []treeEntry) {
	key := func(e treeEntry) string {
		if e.Mode == filemode.Dir {
			return e.Name + "/"
		}
		return e.Name
	}
	sort.Slice(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
}

func encodeTree(entries []treeEntry) []byte {
	treeOrder(entries)
	var b bytes.Buffer
	for _, e := range entries {
		b.WriteString(strconv.FormatUint(uint64(e.Mode), 8))
		b.WriteByte(' ')
		b.WriteString(e.Name)
		b.WriteByte(0)
		b.Write(e.Hash[:])
	}
	return b.Bytes()
}

func decodeTree(data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || len(data) < nul+21 {
			return nil, errors.New("corrupt tree")
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, errors.New("corrupt tree")
		}
		var h plumbing.Hash
		copy(h[:], data[nul+1:nul+21])
		out = append(out, treeEntry{Name: string(data[sp+1 : nul]), Mode: filemode.FileMode(mode), Hash: h})
		data = data[nul+21:]
	}
	return out, nil
}

// tag is a decoded annotated tag object.
type tag struct {
	Object  plumbing.Hash
	Type    string
	Name    string
	Tagger  signature
	Message string
}

func (t *tag) encode() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "object %s\ntype %s\ntag %s\ntagger %s\n\n%s", t.Object, t.Type, t.Name, t.Tagger.encode(), t.Message)
	return b.Bytes()
}

func decodeTag(data []byte) *tag {
	t := &tag{}
	head, msg, _ := bytes.Cut(data, []byte("\n\n"))
	t.Message = string(msg)
	for _, ln := range strings.Split(string(head), "\n") {
		key, val, _ := strings.Cut(ln, " ")
		switch key {
		case "object":
			t.Object = plumbing.NewHash(val)
		case "type":
			t.Type = val
		case "tag":
			t.Name = val
		case "tagger":
			t.Tagger = parseSignature(val)
		}
	}
	return t
}

// readAllObject reads an encoded object's content.
func readAllObject(o plumbing.EncodedObject) ([]byte, error) {
	r, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}
