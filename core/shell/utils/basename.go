package utils

import "strings"

const basenameHelp = `Usage: basename NAME [SUFFIX]
  or:  basename OPTION... NAME...
Print NAME with any leading directory components removed.
If specified, also remove a trailing SUFFIX.

Mandatory arguments to long options are mandatory for short options too.
  -a, --multiple       support multiple arguments and treat each as a NAME
  -s, --suffix=SUFFIX  remove a trailing SUFFIX; implies -a
  -z, --zero           end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Examples:
  basename /usr/bin/sort          -> "sort"
  basename include/stdio.h .h     -> "stdio"
  basename -s .h include/stdio.h  -> "stdio"
  basename -a any/str1 any/str2   -> "str1" followed by "str2"
`

const dirnameHelp = `Usage: dirname [OPTION] NAME...
Output each NAME with its last non-slash component and trailing slashes
removed; if NAME contains no /'s, output '.' (meaning the current directory).

  -z, --zero     end each output line with NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Examples:
  dirname /usr/bin/          -> "/usr"
  dirname dir1/str dir2/str  -> "dir1" followed by "dir2"
  dirname stdio.h            -> "."
`

var basenameOpts = []optDef{
	{short: 'a', long: "multiple"},
	{short: 's', long: "suffix", arg: needArg},
	{short: 'z', long: "zero"},
}

var dirnameOpts = []optDef{{short: 'z', long: "zero"}}

// basenameUtility makes the basename utility (see builtins).
//
// basename and dirname only work on the text of their arguments: they
// touch no file, so they declare no path operands.
func basenameUtility(string) *Utility {
	return &Utility{Name: "basename", Run: runBasename, OperandExit: 1, Help: basenameHelp}
}

// dirnameUtility makes the dirname utility (see builtins).
func dirnameUtility(string) *Utility {
	return &Utility{Name: "dirname", Run: runDirname, OperandExit: 1, Help: dirnameHelp}
}

func runBasename(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "basename", defs: basenameOpts, usageExit: 1, help: basenameHelp})
	if done {
		return status, nil
	}
	multiple, suffix, eol := false, "", "\n"
	for _, o := range args.opts {
		switch o.name {
		case "multiple":
			multiple = true
		case "suffix":
			multiple, suffix = true, o.value
		case "zero":
			eol = "\x00"
		}
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		return t.end(t.usage("missing operand"))
	}
	if !multiple {
		if len(names) > 2 {
			return t.end(t.usage("extra operand " + quoteAlways(names[2])))
		}
		if len(names) == 2 {
			suffix = names[1]
		}
		names = names[:1]
	}
	for _, name := range names {
		if !t.writeString(baseName(name, suffix) + eol) {
			break
		}
	}
	return t.end(0)
}

// baseName strips the directory part and then, unless that would leave
// nothing, the suffix.
func baseName(name, suffix string) string {
	trimmed := strings.TrimRight(name, "/")
	if trimmed == "" {
		if name == "" {
			return ""
		}
		return "/"
	}
	base := trimmed[strings.LastIndexByte(trimmed, '/')+1:]
	if suffix != "" && base != suffix && strings.HasSuffix(base, suffix) {
		base = strings.TrimSuffix(base, suffix)
	}
	return base
}

func runDirname(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "dirname", defs: dirnameOpts, usageExit: 1, help: dirnameHelp})
	if done {
		return status, nil
	}
	eol := "\n"
	if args.has("zero") {
		eol = "\x00"
	}
	names := args.operandStrings(e.Args)
	if len(names) == 0 {
		return t.end(t.usage("missing operand"))
	}
	for _, name := range names {
		if !t.writeString(dirName(name) + eol) {
			break
		}
	}
	return t.end(0)
}

// dirName removes the last component and the slashes around it.
func dirName(name string) string {
	trimmed := strings.TrimRight(name, "/")
	if trimmed == "" {
		if name == "" {
			return "."
		}
		return "/"
	}
	i := strings.LastIndexByte(trimmed, '/')
	if i < 0 {
		return "."
	}
	dir := strings.TrimRight(trimmed[:i], "/")
	if dir == "" {
		return "/"
	}
	return dir
}
