package utils

import (
	"strings"
)

const zipHelp = `Copyright (c) 1990-2008 Info-ZIP - Type 'zip "-L"' for software license.
Zip 3.0 (July 5th 2008). Usage:
zip [-options] [-b path] [-t mmddyyyy] [-n suffixes] [zipfile list] [-xi list]
  The default action is to add or replace zipfile entries from list, which
  can include the special name - to compress standard input.
  If zipfile and list are omitted, zip compresses stdin to stdout.
  -f   freshen: only changed files  -u   update: only changed or new files
  -d   delete entries in zipfile    -m   move into zipfile (delete OS files)
  -r   recurse into directories     -j   junk (don't record) directory names
  -0   store only                   -l   convert LF to CR LF (-ll CR LF to LF)
  -1   compress faster              -9   compress better
  -q   quiet operation              -v   verbose operation/print version info
  -c   add one-line comments        -z   add zipfile comment
  -@   read names from stdin        -o   make zipfile as old as latest entry
  -x   exclude the following names  -i   include only the following names
  -F   fix zipfile (-FF try harder) -D   do not add directory entries
  -A   adjust self-extracting exe   -J   junk zipfile prefix (unzipsfx)
  -T   test zipfile integrity       -X   eXclude eXtra file attributes
  -y   store symbolic links as the link instead of the referenced file
  -e   encrypt                      -n   don't compress these suffixes
  -h2  show more help

In a workspace: -r -j -u -f -d -D -q -0..-9 -x -i -@ and -T; the others are
refused.
`

// zipUtility makes zip (see builtins): every file added is a judged read,
// the archive a judged write (built beside it and renamed over it, as zip
// does).
func zipUtility(string) *Utility {
	return &Utility{
		Name:        "zip",
		Run:         runZip,
		Keeps:       KeepsNothing, // what is held (the old archive, a small file) is charged
		Operands:    zipOperands,
		OperandExit: 18,
		Voice: func(arg, msg string) string {
			return "\tzip warning: name not matched: " + arg + "\n"
		},
		WriteVoice: func(arg, msg string) string {
			return "zip I/O error: " + msg + "\nzip error: Could not create output file (" + arg + ")\n"
		},
		Help: zipHelp,
	}
}

// zipArgs is zip's command line.
type zipArgs struct {
	archive          int // argv index, 0 when none
	names            []int
	exclude, include []string
	recurse, junk    bool
	update, freshen  bool
	del, quiet       bool
	noDirs, stdin    bool
	test             bool
	level            int
}

// zipParse reads zip's command line: options anywhere, -x and -i taking
// the words up to the next option; msg is zip's complaint.
func zipParse(argv []string) (*zipArgs, string) {
	a := &zipArgs{level: 6}
	for i := 1; i < len(argv); i++ {
		arg := argv[i]
		if len(arg) < 2 || arg[0] != '-' {
			if a.archive == 0 {
				a.archive = i
			} else {
				a.names = append(a.names, i)
			}
			continue
		}
		if strings.HasPrefix(arg, "--") {
			if msg := a.long(arg[2:]); msg != "" {
				return nil, msg
			}
			if arg == "--exclude" || arg == "--include" {
				i = a.patterns(argv, i, arg[2] == 'e')
			}
			continue
		}
		for j := 1; j < len(arg); j++ {
			c := arg[j]
			switch {
			case c >= '0' && c <= '9':
				a.level = int(c - '0')
			case c == 'x' || c == 'i':
				if j+1 < len(arg) {
					a.addPattern(c == 'x', arg[j+1:])
				} else if i+1 >= len(argv) || strings.HasPrefix(argv[i+1], "-") {
					return nil, zipRequires(c)
				} else {
					i = a.patterns(argv, i, c == 'x')
				}
				j = len(arg)
			default:
				if msg := a.short(c); msg != "" {
					return nil, msg
				}
			}
		}
	}
	return a, ""
}

func zipRequires(c byte) string {
	what := "exclude files matching patterns"
	if c == 'i' {
		what = "include only files matching patterns"
	}
	return "option '" + string(c) + "' (" + what + ") requires a value"
}

func (a *zipArgs) addPattern(exclude bool, p string) {
	if exclude {
		a.exclude = append(a.exclude, p)
	} else {
		a.include = append(a.include, p)
	}
}

// patterns takes the words after -x or -i up to the next option.
func (a *zipArgs) patterns(argv []string, i int, exclude bool) int {
	for i+1 < len(argv) && !strings.HasPrefix(argv[i+1], "-") {
		i++
		a.addPattern(exclude, argv[i])
	}
	return i
}

func (a *zipArgs) short(c byte) string {
	switch c {
	case 'r', 'R':
		a.recurse = true
	case 'j':
		a.junk = true
	case 'u':
		a.update = true
	case 'f':
		a.freshen = true
	case 'd':
		a.del = true
	case 'q':
		a.quiet = true
	case 'D':
		a.noDirs = true
	case '@':
		a.stdin = true
	case 'T':
		a.test = true
	case 'h':
		return "help"
	default:
		return "short option '" + string(c) + "' not supported"
	}
	return ""
}

func (a *zipArgs) long(name string) string {
	switch name {
	case "recurse-paths":
		return a.short('r')
	case "junk-paths":
		return a.short('j')
	case "update":
		return a.short('u')
	case "freshen":
		return a.short('f')
	case "delete":
		return a.short('d')
	case "quiet":
		return a.short('q')
	case "no-dir-entries":
		return a.short('D')
	case "names-stdin":
		return a.short('@')
	case "test":
		return a.short('T')
	case "help":
		return "help"
	case "exclude", "include":
		return ""
	}
	return "long option '" + name + "' not supported"
}

// zipOperands: the archive is written, the names read (a directory's
// files under -r are judged as each is opened).
func zipOperands(argv []string) []OperandRef {
	a, msg := zipParse(argv)
	if msg != "" || a.archive == 0 {
		return nil
	}
	refs := []OperandRef{{Index: a.archive, Kind: Write}}
	if a.del {
		return refs
	}
	for _, i := range a.names {
		if argv[i] != "-" {
			refs = append(refs, OperandRef{Index: i, Kind: Read})
		}
	}
	return refs
}

// zipArchiveName adds .zip to a name without a suffix, as zip does.
func zipArchiveName(name string) string {
	base := name[strings.LastIndexByte(name, '/')+1:]
	if !strings.Contains(base, ".") {
		return name + ".zip"
	}
	return name
}

// zipMatch is zip's wildcard match: * and ? cross '/', [...] is a set.
// It backtracks only to the last star, so it runs in time linear in
// the pattern and name lengths' product at worst.
func zipMatch(pattern, name string) bool {
	p, n := 0, 0
	starP, starN := -1, 0
	for n < len(name) {
		if p < len(pattern) {
			switch c := pattern[p]; c {
			case '*':
				starP, starN = p, n
				p++
				continue
			case '?':
				p++
				n++
				continue
			case '[':
				if end, ok := zipSet(pattern[p:], name[n]); end > 0 {
					if ok {
						p += end
						n++
						continue
					}
				} else if name[n] == '[' {
					p++
					n++
					continue
				}
			case '\\':
				if p+1 < len(pattern) && pattern[p+1] == name[n] {
					p += 2
					n++
					continue
				}
			default:
				if c == name[n] {
					p++
					n++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starN++
		p, n = starP+1, starN
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// zipSet matches c against the set at the start of s ("[...]"); end is
// the set's length (0 when it is not closed).
func zipSet(s string, c byte) (end int, ok bool) {
	i := 1
	negate := i < len(s) && (s[i] == '!' || s[i] == '^')
	if negate {
		i++
	}
	first := i
	for ; i < len(s); i++ {
		if s[i] == ']' && i > first {
			return i + 1, ok != negate
		}
		if i+2 < len(s) && s[i+1] == '-' && s[i+2] != ']' {
			if s[i] <= c && c <= s[i+2] {
				ok = true
			}
			i += 2
			continue
		}
		if s[i] == c {
			ok = true
		}
	}
	return 0, false
}
