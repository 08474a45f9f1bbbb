package git

import (
	"bufio"
	"fmt"
	"sort"
	"strings"
)

// shortlogOptions are git shortlog's own options; the rest are log's.
type shortlogOptions struct {
	summary, numbered, email bool
	// formats are the groups a commit's idents are counted in: the
	// --group=format: ones as given, then "%aN"/"%cN" (with " <%aE>"
	// under -e) for --group=author and committer, as git orders them.
	formats  []string
	trailers []string // --group=trailer:KEY keys
	author   bool
	commit   bool
	subject  string // --format: each subject line is this format instead
	log      []string
	mm       mailmap // the repository's, nil outside one
}

const shortlogUsage = `usage: git shortlog [<options>] [<revision-range>] [[--] <path>...]
   or: git log --pretty=short | git shortlog [<options>]

    -c, --committer       group by committer rather than author
    -n, --numbered        sort output according to the number of commits per author
    -s, --summary         suppress commit descriptions, only provides commit count
    -e, --email           show the email address of each author
    -w[<w>[,<i1>[,<i2>]]]
                          linewrap output
    --group <field>       group by field

`

// parseShortlogArgs separates shortlog's options from the log's.
func parseShortlogArgs(args []string) (shortlogOptions, error) {
	var o shortlogOptions
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			o.log = append(o.log, args[i:]...)
			break
		}
		if a == "--group" {
			if i+1 >= len(args) {
				return o, usageErr("error: option `group' requires a value\n")
			}
			i++
			a = "--group=" + args[i]
		}
		switch {
		case a == "-s" || a == "--summary":
			o.summary = true
		case a == "-n" || a == "--numbered":
			o.numbered = true
		case a == "-e" || a == "--email":
			o.email = true
		case a == "-c" || a == "--committer":
			o.commit = true
		case strings.HasPrefix(a, "--group="):
			v := strings.TrimPrefix(a, "--group=")
			switch lv := strings.ToLower(v); {
			case lv == "author":
				o.author = true
			case lv == "committer":
				o.commit = true
			case strings.HasPrefix(v, "trailer:"):
				o.trailers = append(o.trailers, strings.TrimPrefix(v, "trailer:"))
			case strings.HasPrefix(v, "format:"):
				o.formats = append(o.formats, strings.TrimPrefix(v, "format:"))
			default:
				return o, usageErr("error: unknown group type: " + v + "\n")
			}
		case strings.HasPrefix(a, "--format=") || strings.HasPrefix(a, "--pretty="):
			o.subject = a[strings.IndexByte(a, '=')+1:]
			o.subject = strings.TrimPrefix(strings.TrimPrefix(o.subject, "format:"), "tformat:")
		case a == "-w" || strings.HasPrefix(a, "-w") && len(a) > 2:
			return o, &exitError{msg: "git: 'shortlog -w' is not supported here\n", code: 1}
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.Trim(a[1:], "snec") == "":
			o.summary = o.summary || strings.Contains(a, "s")
			o.numbered = o.numbered || strings.Contains(a, "n")
			o.email = o.email || strings.Contains(a, "e")
			o.commit = o.commit || strings.Contains(a, "c")
		default:
			o.log = append(o.log, a)
		}
	}
	if !o.commit && len(o.formats) == 0 && len(o.trailers) == 0 {
		o.author = true
	}
	if o.author {
		o.formats = append(o.formats, "%aN"+map[bool]string{true: " <%aE>"}[o.email])
	}
	if o.commit {
		o.formats = append(o.formats, "%cN"+map[bool]string{true: " <%cE>"}[o.email])
	}
	return o, nil
}

// shortlogGroups are the subjects counted under each name, newest first.
type shortlogGroups map[string][]string

// runShortlog is git shortlog: commits grouped by author (-c, --group:
// committer, a trailer's idents, a format), each group's subjects oldest
// first, or with -s their counts; -n sorts by count, -e adds the email.
// With no revision it reads a log from standard input, as git does when
// that is not a terminal, which a workspace's never is.
func runShortlog(g *cmd, args []string) error {
	so, err := parseShortlogArgs(args)
	if err != nil {
		return err
	}
	o, err := parseLogArgs(so.log)
	if err != nil {
		return err
	}
	groups := shortlogGroups{}
	r, err := g.findRepo()
	if err == nil {
		r.splitRevsPaths(&o)
		so.mm = r.loadMailmap()
	} else if len(o.revs) > 0 || o.all || len(o.paths) > 0 {
		return usageErr("error: too many arguments given outside repository\n" + shortlogUsage)
	}
	if len(o.revs) == 0 && !o.all {
		if err := readShortlogInput(g, groups, so); err != nil {
			return err
		}
		groups.print(g, so)
		return nil
	}
	o.visit = func(c *commit) error {
		r.shortlogAdd(groups, c, so)
		return nil
	}
	if err := r.runLogWalk(o); err != nil {
		return err
	}
	groups.print(g, so)
	return nil
}

// print writes the groups by name (-n: by count, then name).
func (groups shortlogGroups) print(g *cmd, so shortlogOptions) {
	who := make([]string, 0, len(groups))
	for k := range groups {
		who = append(who, k)
	}
	sort.Slice(who, func(i, j int) bool {
		if so.numbered && len(groups[who[i]]) != len(groups[who[j]]) {
			return len(groups[who[i]]) > len(groups[who[j]])
		}
		return who[i] < who[j]
	})
	for _, k := range who {
		subjects := groups[k]
		if so.summary {
			fmt.Fprintf(g.out, "%6d\t%s\n", len(subjects), k)
			continue
		}
		fmt.Fprintf(g.out, "%s (%d):\n", k, len(subjects))
		for i := len(subjects) - 1; i >= 0; i-- {
			fmt.Fprintf(g.out, "      %s\n", subjects[i])
		}
		g.out.WriteString("\n")
	}
}

// shortlogAdd counts one commit under each of its names, once per name.
func (r *repo) shortlogAdd(groups shortlogGroups, c *commit, so shortlogOptions) {
	line := ""
	if !so.summary {
		if so.subject != "" {
			line = r.expandFormat(so.subject, c)
		} else {
			line = c.subject()
		}
		if line == "" {
			line = "<none>"
		}
	}
	dedup := len(so.formats)+len(so.trailers) > 1
	seen := map[string]bool{}
	add := func(name string) {
		if dedup && seen[name] {
			return
		}
		seen[name] = true
		groups.add(name, line)
	}
	if len(so.trailers) > 0 {
		for _, t := range commitTrailers(c.Message) {
			for _, k := range so.trailers {
				if strings.EqualFold(k, t[0]) {
					add(so.ident(t[1]))
					break
				}
			}
		}
	}
	for _, f := range so.formats {
		add(r.expandFormat(f, c))
	}
}

// add records one subject under a name, as git's insert_one_record
// tidies it: leading blanks and a "[PATCH...]" prefix dropped.
func (groups shortlogGroups) add(name, line string) {
	s := strings.TrimLeft(line, " \t\n\r\v\f")
	if strings.HasPrefix(s, "[PATCH") {
		if end := strings.IndexByte(s, ']'); end >= 0 {
			s = s[end+1:]
		}
	}
	groups[name] = append(groups[name], joinSubject(strings.TrimLeft(s, " \t\r\v\f")))
}

// joinSubject is git's format_subject: the first paragraph's lines,
// each without trailing blanks, joined by spaces.
func joinSubject(msg string) string {
	var parts []string
	for _, ln := range strings.Split(msg, "\n") {
		ln = strings.TrimRight(ln, " \t\r\v\f")
		if ln == "" {
			break
		}
		parts = append(parts, ln)
	}
	return strings.Join(parts, " ")
}

// ident is a trailer's value as shortlog names it: an ident's name
// (and email, -e) as the mailmap has them; other text as it is.
func (so shortlogOptions) ident(v string) string {
	if s, ok := so.identOK(v); ok {
		return s
	}
	return v
}

// identOK reads "Name <email>..." as git's split_ident_line (the name
// up to the last non-blank before "<", the email up to the first ">"),
// maps it and names it as shortlog does.
func (so shortlogOptions) identOK(v string) (string, bool) {
	lt := strings.IndexByte(v, '<')
	if lt < 0 {
		return "", false
	}
	gt := strings.IndexByte(v[lt+1:], '>')
	if gt < 0 {
		return "", false
	}
	s := so.mm.mapIdent(signature{Name: strings.TrimRight(v[:lt], " \t\n\r\v\f"), Email: v[lt+1 : lt+1+gt]})
	if so.email {
		return s.Name + " <" + s.Email + ">", true
	}
	return s.Name, true
}

// commitTrailers are the "Key: value" lines of a message's last
// paragraph, when it is one of trailers as git recognizes it (every line
// a trailer or a continuation, or a quarter of them with a Signed-off-by
// among them); a continuation line joins its trailer's value.
func commitTrailers(msg string) [][2]string {
	msg = strings.TrimRight(msg, "\n")
	cut := strings.LastIndex(msg, "\n\n")
	if cut < 0 {
		return nil
	}
	var out [][2]string
	trailerLines, other, signed := 0, 0, false
	for _, ln := range strings.Split(msg[cut+2:], "\n") {
		if ln != "" && (ln[0] == ' ' || ln[0] == '\t') && len(out) > 0 {
			out[len(out)-1][1] += " " + strings.TrimSpace(ln)
			continue
		}
		key, val, ok := strings.Cut(ln, ":")
		if !ok || key == "" || strings.TrimLeft(key, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") != "" {
			other++
			continue
		}
		trailerLines++
		signed = signed || key == "Signed-off-by"
		out = append(out, [2]string{key, strings.TrimSpace(val)})
	}
	if trailerLines == 0 || other > 0 && !(signed && trailerLines*3 >= other) {
		return nil
	}
	return out
}

// readShortlogInput reads git log's output from standard input: each
// "Author: " line (or "Commit: " with -c; "author "/"committer " of
// --pretty=raw), the headers after it, and the first line of the message.
func readShortlogInput(g *cmd, groups shortlogGroups, so shortlogOptions) error {
	if len(so.trailers) > 0 {
		return fatalf("using --group=trailer with stdin is not supported")
	}
	if len(so.formats) > 1 {
		return fatalf("using multiple --group options with stdin is not supported")
	}
	keys := [2]string{"Author: ", "author "}
	if so.commit {
		keys = [2]string{"Commit: ", "committer "}
	}
	sc := bufio.NewScanner(g.env.Stdin)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	next := func() (string, bool) {
		if sc.Scan() {
			return sc.Text(), true
		}
		return "", false
	}
	for {
		ln, ok := next()
		if !ok {
			return sc.Err()
		}
		v, ok := strings.CutPrefix(ln, keys[0])
		if !ok {
			if v, ok = strings.CutPrefix(ln, keys[1]); !ok {
				continue
			}
		}
		for ln, ok = next(); ok && ln != ""; ln, ok = next() {
		}
		for ln, ok = next(); ok && ln == ""; ln, ok = next() {
		}
		if so.summary {
			ln = ""
		}
		name, ok := so.identOK(v)
		if !ok {
			continue
		}
		groups.add(name, ln)
	}
}
