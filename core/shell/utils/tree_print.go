package utils

import (
	"strconv"
	"strings"
	"time"
)

// tree's two outputs: the drawn tree with its report, and -J's JSON.

// printText draws one root and what lies under it.
func (r *treeRun) printText(n *treeNode) {
	label := r.info(n) + r.name(n, true)
	if n.note != "" {
		if n.info != nil {
			label = n.name // a file limit: just the name
		}
		r.t.writeString(label + "  " + n.note + "\n")
		return
	}
	r.t.writeString(label + "\n")
	r.draw(n.kids, "")
}

// draw prints siblings with the drawing prefix.
func (r *treeRun) draw(kids []*treeNode, prefix string) {
	for i, k := range kids {
		if r.t.stopped() {
			return
		}
		connector, indent := r.cfg.branch, r.cfg.pipe
		if i == len(kids)-1 {
			connector, indent = r.cfg.last, r.cfg.blank
		}
		line := prefix + connector + r.info(k) + r.name(k, false)
		if k.note != "" {
			line += "  " + k.note
		}
		r.t.writeString(line + "\n")
		if k.dir && k.opened {
			r.draw(k.kids, prefix+indent)
		}
	}
}

// name renders an entry's name: full path with -f, quoted with -Q, its
// link target, and -F's mark.
func (r *treeRun) name(n *treeNode, root bool) string {
	label := n.name
	if r.cfg.fullPath && !root {
		label = n.shown
	}
	if r.cfg.quote {
		label = `"` + label + `"`
	}
	if n.target != "" {
		target := n.target
		if r.cfg.quote {
			target = `"` + target + `"`
		}
		label += " -> " + target
	}
	if r.cfg.classify && n.info != nil {
		label += treeClassify(n.info.Mode())
	}
	return label
}

// info renders the "[...]  " block of -p -u -g -s -h -D.
func (r *treeRun) info(n *treeNode) string {
	cfg := r.cfg
	if n.info == nil || !(cfg.perms || cfg.user || cfg.group || cfg.size || cfg.human || cfg.date || cfg.du) {
		return ""
	}
	var parts []string
	if cfg.perms {
		parts = append(parts, n.info.Mode().String())
	}
	if cfg.user {
		parts = append(parts, padRight("root", 8))
	}
	if cfg.group {
		parts = append(parts, padRight("root", 8))
	}
	if cfg.size || cfg.human || cfg.du {
		parts = append(parts, r.sizeText(n))
	}
	if cfg.date {
		parts = append(parts, treeDate(n.info.ModTime()))
	}
	return "[" + strings.Join(parts, " ") + "]  "
}

// treeSize is an entry's size: its own, or with --du a directory's total.
func (r *treeRun) treeSize(n *treeNode) int64 {
	if r.cfg.du && n.dir {
		return n.size
	}
	return n.info.Size()
}

// sizeText renders a size: 11 columns, or 4 in -h's units.
func (r *treeRun) sizeText(n *treeNode) string {
	size := r.treeSize(n)
	if !r.cfg.human {
		return padLeft(strconv.FormatInt(size, 10), 11)
	}
	return padLeft(treeHuman(size), 4)
}

// treeHuman is tree -h's size: bytes below 1K, else one decimal under
// ten units and none above.
func treeHuman(size int64) string {
	if size < 1024 {
		return strconv.FormatInt(size, 10)
	}
	v := float64(size)
	unit := 0
	for v >= 1024 && unit < 6 {
		v /= 1024
		unit++
	}
	suffix := string("BKMGTPE"[unit])
	if v < 9.95 {
		return strconv.FormatFloat(v, 'f', 1, 64) + suffix
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + suffix
}

// treeDate is -D's date, as ls -l shows one.
func treeDate(t time.Time) string {
	now := time.Now()
	if t.After(now.AddDate(0, -6, 0)) && !t.After(now.Add(time.Hour)) {
		return t.Format("Jan _2 15:04")
	}
	return t.Format("Jan _2  2006")
}

// report prints the closing count (and --du's total).
func (r *treeRun) report() {
	if r.cfg.noReport {
		return
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return strconv.Itoa(n) + " " + one
		}
		return strconv.Itoa(n) + " " + many
	}
	report := "\n"
	if r.cfg.du {
		if r.cfg.human {
			report += padLeft(treeHuman(r.used), 5) + " used in "
		} else {
			report += padLeft(strconv.FormatInt(r.used, 10), 12) + " bytes used in "
		}
	}
	report += plural(r.dirs, "directory", "directories")
	if !r.cfg.dirsOnly {
		report += ", " + plural(r.files, "file", "files")
	}
	r.t.writeString(report + "\n")
}

// printJSON prints -J's document: one object per root, then the report.
func (r *treeRun) printJSON(nodes []*treeNode) {
	r.t.writeString("[\n")
	for i, n := range nodes {
		if i > 0 {
			r.t.writeString(",\n")
		}
		r.jsonNode(n, 1)
	}
	r.t.writeString("\n")
	if r.cfg.noReport {
		r.t.writeString("\n")
	} else {
		r.t.writeString(",\n  {\"type\":\"report\",")
		if r.cfg.du {
			r.t.writeString("\"size\":" + strconv.FormatInt(r.used, 10) + ",")
		}
		r.t.writeString("\"directories\":" + strconv.Itoa(r.dirs))
		if !r.cfg.dirsOnly {
			r.t.writeString(",\"files\":" + strconv.Itoa(r.files))
		}
		r.t.writeString("}\n")
	}
	r.t.writeString("]\n")
}

// jsonNode prints one entry and its contents.
func (r *treeRun) jsonNode(n *treeNode, depth int) {
	indent := strings.Repeat("  ", depth)
	kind := "file"
	switch {
	case n.dir:
		kind = "directory"
	case n.target != "":
		kind = "link"
	}
	var b strings.Builder
	b.WriteString(indent + `{"type":"` + kind + `","name":` + jsonQuote(n.name))
	if n.target != "" {
		b.WriteString(`,"target":` + jsonQuote(n.target))
	}
	if n.info != nil {
		r.jsonInfo(&b, n)
	}
	r.t.writeString(b.String())
	if !n.dir || len(n.kids) == 0 {
		r.t.writeString("}")
		return
	}
	r.t.writeString(`,"contents":[` + "\n")
	for i, k := range n.kids {
		if i > 0 {
			r.t.writeString(",\n")
		}
		r.jsonNode(k, depth+1)
	}
	r.t.writeString("\n" + indent + "]}")
}

// jsonInfo adds -p, -u, -g, -s/-h and -D fields.
func (r *treeRun) jsonInfo(b *strings.Builder, n *treeNode) {
	cfg := r.cfg
	m := n.info.Mode()
	if cfg.perms {
		b.WriteString(`,"mode":"` + padFill(strconv.FormatUint(uint64(unixBits(m)), 8), 4, '0') + `","prot":"` + m.String() + `"`)
	}
	if cfg.user {
		b.WriteString(`,"user":"root"`)
	}
	if cfg.group {
		b.WriteString(`,"group":"root"`)
	}
	switch {
	case cfg.human:
		b.WriteString(`,"size":"` + treeHuman(r.treeSize(n)) + `"`)
	case cfg.size || cfg.du:
		b.WriteString(`,"size":` + strconv.FormatInt(r.treeSize(n), 10))
	}
	if cfg.date {
		b.WriteString(`,"time":"` + treeDate(n.info.ModTime()) + `"`)
	}
}

// jsonQuote is a JSON string.
func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range []byte(s) {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			b.WriteString(`\u00` + string("0123456789abcdef"[c>>4]) + string("0123456789abcdef"[c&15]))
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
