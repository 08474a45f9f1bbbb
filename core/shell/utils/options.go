package utils

import (
	"slices"
	"strings"
)

// argMode says whether an option takes an argument.
type argMode int

const (
	noArg    argMode = iota
	needArg          // -n 5, -n5, --lines=5, --lines 5
	maybeArg         // only attached: -i{}, --color=never
)

// optDef declares one option the way getopt_long would see it.
type optDef struct {
	short byte   // 0 for a long-only option
	long  string // "" for a short-only option
	arg   argMode
}

// name is the canonical key a parsed option is reported under: the long
// name when there is one, else the short letter.
func (d *optDef) name() string {
	if d.long != "" {
		return d.long
	}
	return string(d.short)
}

// parsedOpt is one option occurrence, in argv order.
type parsedOpt struct {
	name     string
	value    string
	hasValue bool
	// valueIndex is the argv index holding the value; valueAttached says the
	// value shares that element with the option (-fFILE, --file=FILE), so
	// argv[valueIndex] is not the value itself.
	valueIndex    int
	valueAttached bool
}

// parseMode tunes the parser to a utility's getopt string.
type parseMode struct {
	// stopAtOperand ends option parsing at the first operand, as getopt does
	// for "+" option strings (env, xargs) and under POSIXLY_CORRECT.
	stopAtOperand bool
	// digitsAs, when set, makes -NUM an option of that name whose value is
	// the digits (grep's -5 for --context=5).
	digitsAs string
}

// usageError is a command-line mistake, worded as getopt_long words it.
type usageError struct{ msg string }

// parsedArgs is the result of parsing argv[1:].
type parsedArgs struct {
	opts     []parsedOpt
	operands []int // argv indexes, in order
}

// has reports whether an option was given at all.
func (p *parsedArgs) has(name string) bool {
	for _, o := range p.opts {
		if o.name == name {
			return true
		}
	}
	return false
}

// helpOpt and versionOpt are recognised by every utility.
var (
	helpOpt    = optDef{long: "help"}
	versionOpt = optDef{long: "version"}
)

// parseArgs parses argv like getopt_long with argument permutation: options
// may follow operands until "--". --help and --version are always known.
func parseArgs(argv []string, defs []optDef, mode parseMode) (*parsedArgs, *usageError) {
	all := make([]optDef, 0, len(defs)+2)
	all = append(all, defs...)
	all = append(all, helpOpt, versionOpt)
	res := &parsedArgs{}
	for i := 1; i < len(argv); i++ {
		arg := argv[i]
		switch {
		case arg == "--":
			for j := i + 1; j < len(argv); j++ {
				res.addOperand(j, len(argv))
			}
			return res, nil
		case strings.HasPrefix(arg, "--"):
			next, err := parseLong(argv, i, all, res)
			if err != nil {
				return nil, err
			}
			i = next
		case len(arg) > 1 && arg[0] == '-':
			next, err := parseShortCluster(argv, i, all, mode, res)
			if err != nil {
				return nil, err
			}
			i = next
		default:
			if mode.stopAtOperand {
				for j := i; j < len(argv); j++ {
					res.addOperand(j, len(argv))
				}
				return res, nil
			}
			res.addOperand(i, len(argv))
		}
	}
	return res, nil
}

// addOperand records argv[i] as an operand. The first one makes room for
// every element after it: xargs hands a utility thousands of operands,
// and a slice grown by doubling allocated about twice what it kept.
func (res *parsedArgs) addOperand(i, argc int) {
	if res.operands == nil {
		res.operands = make([]int, 0, argc-i)
	}
	res.operands = append(res.operands, i)
}

// parseLong handles one --name[=value] element and returns the index of the
// last element it consumed.
func parseLong(argv []string, i int, defs []optDef, res *parsedArgs) (int, *usageError) {
	body := argv[i][2:]
	name, value, hasValue := strings.Cut(body, "=")
	def, err := matchLong(name, argv[i], defs)
	if err != nil {
		return i, err
	}
	o := parsedOpt{name: def.name(), valueIndex: i}
	switch def.arg {
	case noArg:
		if hasValue {
			return i, &usageError{"option '--" + def.long + "' doesn't allow an argument"}
		}
	case needArg:
		if hasValue {
			o.value, o.hasValue, o.valueAttached = value, true, true
		} else {
			if i+1 >= len(argv) {
				return i, &usageError{"option '--" + def.long + "' requires an argument"}
			}
			i++
			o.value, o.hasValue, o.valueIndex = argv[i], true, i
		}
	case maybeArg:
		if hasValue {
			o.value, o.hasValue, o.valueAttached = value, true, true
		}
	}
	res.opts = append(res.opts, o)
	return i, nil
}

// matchLong finds the long option a possibly abbreviated name denotes.
func matchLong(name, spelled string, defs []optDef) (*optDef, *usageError) {
	var candidates []*optDef
	for k := range defs {
		d := &defs[k]
		if d.long == "" {
			continue
		}
		if d.long == name {
			return d, nil
		}
		if name != "" && strings.HasPrefix(d.long, name) {
			candidates = append(candidates, d)
		}
	}
	switch len(candidates) {
	case 0:
		shown, _, _ := strings.Cut(spelled, "=")
		return nil, &usageError{"unrecognized option '" + shown + "'"}
	case 1:
		return candidates[0], nil
	}
	msg := "option '--" + name + "' is ambiguous; possibilities:"
	for _, c := range candidates {
		msg += " '--" + c.long + "'"
	}
	return nil, &usageError{msg}
}

// parseShortCluster handles one -abc element and returns the index of the
// last element it consumed.
func parseShortCluster(argv []string, i int, defs []optDef, mode parseMode, res *parsedArgs) (int, *usageError) {
	arg := argv[i]
	for j := 1; j < len(arg); j++ {
		c := arg[j]
		if mode.digitsAs != "" && c >= '0' && c <= '9' {
			k := j
			for k < len(arg) && arg[k] >= '0' && arg[k] <= '9' {
				k++
			}
			res.opts = append(res.opts, parsedOpt{name: mode.digitsAs, value: arg[j:k], hasValue: true, valueIndex: i, valueAttached: true})
			j = k - 1
			continue
		}
		def := findShort(c, defs)
		if def == nil {
			return i, &usageError{"invalid option -- '" + string(c) + "'"}
		}
		o := parsedOpt{name: def.name(), valueIndex: i}
		switch def.arg {
		case needArg:
			if j+1 < len(arg) {
				o.value, o.hasValue, o.valueAttached = arg[j+1:], true, true
			} else {
				if i+1 >= len(argv) {
					return i, &usageError{"option requires an argument -- '" + string(c) + "'"}
				}
				i++
				o.value, o.hasValue, o.valueIndex = argv[i], true, i
			}
			res.opts = append(res.opts, o)
			return i, nil
		case maybeArg:
			if j+1 < len(arg) {
				o.value, o.hasValue, o.valueAttached = arg[j+1:], true, true
			}
			res.opts = append(res.opts, o)
			return i, nil
		}
		res.opts = append(res.opts, o)
	}
	return i, nil
}

func findShort(c byte, defs []optDef) *optDef {
	for k := range defs {
		if defs[k].short == c {
			return &defs[k]
		}
	}
	return nil
}

// operandRefs turns argv indexes into operand references of one kind.
func operandRefs(indexes []int, kind OperandKind) []OperandRef {
	refs := make([]OperandRef, 0, len(indexes))
	for _, i := range indexes {
		refs = append(refs, OperandRef{Index: i, Kind: kind})
	}
	return refs
}

// fileRefs is operandRefs for file operands, where "-" names standard
// input or output rather than a path.
func fileRefs(argv []string, indexes []int, kind OperandKind) []OperandRef {
	return appendFileRefs(nil, argv, indexes, kind)
}

// appendFileRefs is fileRefs appended to refs, grown once: xargs hands
// grep thousands of operands in one command.
func appendFileRefs(refs []OperandRef, argv []string, indexes []int, kind OperandKind) []OperandRef {
	refs = slices.Grow(refs, len(indexes))
	for _, i := range indexes {
		if argv[i] != "-" {
			refs = append(refs, OperandRef{Index: i, Kind: kind})
		}
	}
	return refs
}

// optionOperand references the path an option carries (grep -f FILE, sort
// -o FILE), spelling it out when it shares its argv element with the option.
func optionOperand(o parsedOpt, kind OperandKind) OperandRef {
	ref := OperandRef{Index: o.valueIndex, Kind: kind}
	if o.valueAttached {
		ref.Path = o.value
	}
	return ref
}
