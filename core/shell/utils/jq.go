package utils

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/itchyny/gojq"

	"gatehouse/internal/lazy"
)

// jq runs github.com/itchyny/gojq over inputs read through the VFS. The
// host never shows through: $ENV and env are the session's exported
// variables, and no module is ever loaded (import/include fail).
//
// gojq keeps objects as Go maps, so object keys always print sorted (as
// with -S); error texts are gojq's, framed the way jq frames them.

const jqHelp = `Usage:	jq [OPTIONS] FILTER [FILES...]
	jq [OPTIONS] --args FILTER [STRINGS...]
	jq [OPTIONS] --jsonargs FILTER [JSON_TEXTS...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

The simplest filter is ., which copies jq's input to its output
unmodified (except for formatting, and keys are always sorted).

Some of the options include:
  -c, --compact-output      compact instead of pretty-printed output;
  -n, --null-input          use ` + "`null`" + ` as the single input value;
  -e, --exit-status         set the exit status code based on the output;
  -s, --slurp               read (slurp) all inputs into an array; apply filter to it;
  -r, --raw-output          output strings without escapes and quotes;
  -j, --join-output         like -r but print no newline after each output;
  -a, --ascii-output        output non-ASCII characters as \uXXXX escapes;
  -R, --raw-input           read each line as a string instead of JSON;
  -S, --sort-keys           sort keys of each object on output (always on);
      --tab                 use tabs for indentation;
      --indent n            use n spaces for indentation (max 7 spaces);
  -f, --from-file file      load the filter from a file;
      --arg name value      set $name to the string value;
      --argjson name value  set $name to the JSON value;
      --slurpfile name file set $name to an array of JSON values read from the file;
      --rawfile name file   set $name to the contents of the file;
      --args                consume remaining arguments as positional string values;
      --jsonargs            consume remaining arguments as positional JSON values;
  -h, --help                show the help;
      --version             show the version.

Exit status: 0 normally; with -e, 1 when the last output was false or
null and 4 when there was none; 2 for usage problems or unreadable files;
3 for a filter that does not compile; 5 for a runtime error.
`

// jqUtility makes the jq utility (see builtins).
func jqUtility(string) *Utility {
	return &Utility{
		Name:        "jq",
		Opaque:      true,
		Keeps:       KeepsAll,
		Run:         runJq,
		Operands:    jqOperands,
		OperandExit: 2,
		Voice:       jqVoice,
		Help:        jqHelp,
	}
}

func jqVoice(arg, msg string) string {
	return "jq: error: Could not open file " + arg + ": " + msg + "\n"
}

// jqConfig is jq's parsed command line.
type jqConfig struct {
	raw, join, compact, nullInput, slurp, exitStatus, ascii, rawInput, tab bool
	indent                                                                 int
	filter                                                                 string
	filterFile                                                             string
	files                                                                  []string
	fileIndexes                                                            []int
	varNames                                                               []string
	varValues                                                              []any
	named                                                                  map[string]any
	positional                                                             []any
	pathRefs                                                               []OperandRef
	// pending variables read from files (--slurpfile, --rawfile).
	fileVars  []jqFileVar
	sortKeys  bool
	orders    *jqKeyOrders
	namedKeys []string
}

type jqFileVar struct {
	name, file string
	slurp      bool
}

// jqUsageError is a command-line mistake: jq prints it and exits 2.
type jqUsageError struct{ msg string }

// jqParseArgs reads jq's command line, which getopt cannot: --arg takes
// two arguments, and --args turns the remaining operands into strings.
func jqParseArgs(argv []string) (*jqConfig, bool, *jqUsageError) {
	p := &jqArgs{argv: argv, cfg: &jqConfig{indent: 2, named: map[string]any{}, orders: newJqKeyOrders()}}
	cfg := p.cfg
	onlyOperands := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		var err *jqUsageError
		switch {
		case onlyOperands || a == "-" || !strings.HasPrefix(a, "-"):
			err = p.operand(i)
		case a == "--":
			onlyOperands = true
		case strings.HasPrefix(a, "--"):
			i, err = p.long(i)
		default:
			i, err = p.short(i)
		}
		if err != nil && err.msg == "version" {
			return cfg, false, err
		}
		if err != nil {
			return nil, false, err
		}
	}
	if cfg.filterFile != "" && p.haveFilter {
		// With -f the first operand is an input file after all.
		cfg.files = append([]string{cfg.filter}, cfg.files...)
		cfg.fileIndexes = append([]int{jqFirstOperand(argv)}, cfg.fileIndexes...)
		cfg.filter = ""
	}
	if !p.haveFilter && cfg.filterFile == "" {
		cfg.filter = "."
	}
	return cfg, p.help, nil
}

// jqArgs is jqParseArgs's state while it reads argv.
type jqArgs struct {
	argv       []string
	cfg        *jqConfig
	help       bool
	haveFilter bool
	restMode   string // "", "args" or "jsonargs"
}

// need checks that the option at argv[i] is followed by its n arguments.
func (p *jqArgs) need(i, n int, opt string) *jqUsageError {
	if i+n >= len(p.argv) {
		return &jqUsageError{"jq: error: " + opt + " takes " + []string{"", "one parameter", "two parameters"}[n] + " (e.g. " + opt + " " + []string{"", "value", "varname value"}[n] + ")"}
	}
	return nil
}

// operand takes argv[i] as the filter, a positional argument (after
// --args or --jsonargs) or an input file.
func (p *jqArgs) operand(i int) *jqUsageError {
	a, cfg := p.argv[i], p.cfg
	switch {
	case !p.haveFilter && cfg.filterFile == "":
		cfg.filter, p.haveFilter = a, true
	case p.restMode == "args":
		cfg.positional = append(cfg.positional, a)
	case p.restMode == "jsonargs":
		v, err := jqDecodeText(a, cfg.orders)
		if err != nil {
			return &jqUsageError{"jq: Invalid JSON text passed to --jsonargs"}
		}
		cfg.positional = append(cfg.positional, v)
	default:
		cfg.files = append(cfg.files, a)
		cfg.fileIndexes = append(cfg.fileIndexes, i)
	}
	return nil
}

// jqLongFlags are the long options that only set a flag.
var jqLongFlags = lazy.Value[map[string]func(*jqConfig)]{New: func() map[string]func(*jqConfig) {
	return map[string]func(*jqConfig){
		"raw-output":     func(c *jqConfig) { c.raw = true },
		"join-output":    func(c *jqConfig) { c.raw, c.join = true, true },
		"compact-output": func(c *jqConfig) { c.compact = true },
		"null-input":     func(c *jqConfig) { c.nullInput = true },
		"slurp":          func(c *jqConfig) { c.slurp = true },
		"exit-status":    func(c *jqConfig) { c.exitStatus = true },
		"sort-keys":      func(c *jqConfig) { c.sortKeys = true },
		"ascii-output":   func(c *jqConfig) { c.ascii = true },
		"raw-input":      func(c *jqConfig) { c.rawInput = true },
		"tab":            func(c *jqConfig) { c.tab = true },
		// Accepted and without effect here: no terminal, no streaming.
		"color-output": func(*jqConfig) {}, "monochrome-output": func(*jqConfig) {},
		"unbuffered": func(*jqConfig) {}, "seq": func(*jqConfig) {},
	}
}}

// long reads the long option at argv[i] and returns the index of the last
// word it took.
func (p *jqArgs) long(i int) (int, *jqUsageError) {
	argv, cfg := p.argv, p.cfg
	a := argv[i]
	name := a[2:]
	if set, ok := jqLongFlags.Get()[name]; ok {
		set(cfg)
		return i, nil
	}
	switch name {
	case "indent":
		if err := p.need(i, 1, "--indent"); err != nil {
			return i, err
		}
		n, err := strconv.Atoi(argv[i+1])
		if err != nil || n < -1 || n > 7 {
			return i, &jqUsageError{"jq: --indent takes a number between -1 and 7" + jqUsageHint}
		}
		cfg.indent = n
		return i + 1, nil
	case "arg", "argjson", "slurpfile", "rawfile":
		if err := p.need(i, 2, a); err != nil {
			return i, err
		}
		vname, value := argv[i+1], argv[i+2]
		switch name {
		case "arg":
			cfg.addVar(vname, value)
		case "argjson":
			v, err := jqDecodeText(value, cfg.orders)
			if err != nil {
				return i, &jqUsageError{"jq: invalid JSON text passed to --argjson"}
			}
			cfg.addVar(vname, v)
		default:
			cfg.fileVars = append(cfg.fileVars, jqFileVar{name: vname, file: value, slurp: name == "slurpfile"})
			cfg.pathRefs = append(cfg.pathRefs, OperandRef{Index: i + 2, Kind: Read})
		}
		return i + 2, nil
	case "args", "jsonargs":
		p.restMode = name
	case "from-file":
		return p.filterFile(i, "--from-file")
	case "help":
		p.help = true
	case "version":
		return i, &jqUsageError{"version"}
	default:
		return i, jqUnknownOption(a)
	}
	return i, nil
}

// jqShortFlags names the long option each letter that only sets a flag
// stands for, so a letter and its long spelling set the same thing.
var jqShortFlags = lazy.Value[map[byte]string]{New: func() map[byte]string {
	return map[byte]string{
		'r': "raw-output", 'j': "join-output", 'c': "compact-output",
		'n': "null-input", 's': "slurp", 'e': "exit-status", 'a': "ascii-output",
		'R': "raw-input", 'S': "sort-keys", 'C': "color-output", 'M': "monochrome-output",
	}
}}

// short reads the cluster of letters at argv[i] and returns the index of
// the last word it took.
func (p *jqArgs) short(i int) (int, *jqUsageError) {
	a := p.argv[i]
	for k := 1; k < len(a); k++ {
		if long, ok := jqShortFlags.Get()[a[k]]; ok {
			jqLongFlags.Get()[long](p.cfg)
			continue
		}
		switch a[k] {
		case 'h':
			p.help = true
		case 'f':
			next, err := p.filterFile(i, "-f")
			if err != nil {
				return i, err
			}
			i = next
		default:
			return i, jqUnknownOption(a)
		}
	}
	return i, nil
}

// filterFile takes the word after argv[i] as the file holding the filter.
func (p *jqArgs) filterFile(i int, opt string) (int, *jqUsageError) {
	if err := p.need(i, 1, opt); err != nil {
		return i, err
	}
	p.cfg.filterFile = p.argv[i+1]
	p.cfg.pathRefs = append(p.cfg.pathRefs, OperandRef{Index: i + 1, Kind: Read})
	return i + 1, nil
}

// jqFirstOperand finds the argv index of the operand taken as the filter.
func jqFirstOperand(argv []string) int {
	skip := map[string]int{"--indent": 1, "--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2, "--from-file": 1, "-f": 1}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if n, ok := skip[a]; ok {
			i += n
			continue
		}
		if strings.HasPrefix(a, "-") && a != "-" && len(a) > 1 {
			if !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "f") {
				i++
			}
			continue
		}
		return i
	}
	return -1
}

// jqUsageHint follows jq's complaints about the command line.
const jqUsageHint = "\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://stedolan.github.io/jq"

func jqUnknownOption(a string) *jqUsageError {
	return &jqUsageError{"jq: Unknown option " + a + jqUsageHint}
}

func (cfg *jqConfig) addVar(name string, v any) {
	cfg.varNames = append(cfg.varNames, "$"+name)
	cfg.varValues = append(cfg.varValues, v)
	cfg.named[name] = v
	cfg.namedKeys = append(cfg.namedKeys, name)
}

func jqOperands(argv []string) []OperandRef {
	cfg, _, err := jqParseArgs(argv)
	if err != nil {
		return nil
	}
	refs := append([]OperandRef(nil), cfg.pathRefs...)
	for k, idx := range cfg.fileIndexes {
		if cfg.files[k] != "-" && idx > 0 {
			refs = append(refs, OperandRef{Index: idx, Kind: Read})
		}
	}
	return refs
}

func runJq(e *Env) (int, error) {
	t := newTool(e, "jq", jqHelp, 2)
	cfg, help, uerr := jqParseArgs(e.Args)
	if uerr != nil {
		if uerr.msg == "version" {
			t.writeString("jq-1.7.1\n")
			return t.end(0)
		}
		t.rawStderr(uerr.msg + "\n")
		return t.end(2)
	}
	if help {
		t.writeString(jqHelp)
		return t.end(0)
	}
	if cfg.filterFile != "" {
		text, err := jqReadFile(t, cfg.filterFile)
		if err != nil {
			t.rawStderr("jq: error: Could not open " + cfg.filterFile + ": " + errText(err) + "\n")
			return t.end(2)
		}
		cfg.filter = text
	}
	for _, fv := range cfg.fileVars {
		text, err := jqReadFile(t, fv.file)
		if err != nil {
			t.rawStderr("jq: error: Could not open " + fv.file + ": " + errText(err) + "\n")
			return t.end(2)
		}
		if !fv.slurp {
			cfg.addVar(fv.name, text)
			continue
		}
		values, perr := jqDecodeAll(text, cfg.orders)
		if perr != nil {
			t.rawStderr("jq: Bad JSON in --slurpfile " + fv.name + " " + fv.file + ": " + perr.Error() + "\n")
			return t.end(2)
		}
		cfg.addVar(fv.name, values)
	}
	query, err := gojq.Parse(cfg.filter)
	if err == nil && jqTreeDepth(query) > jqMaxNesting {
		err = errors.New("program nested too deeply")
	}
	if err != nil {
		t.rawStderr("jq: error: " + err.Error() + "\njq: 1 compile error\n")
		return t.end(3)
	}
	query, err = jqOrderedQuery(query, cfg.orders)
	if err != nil {
		t.rawStderr("jq: error: " + err.Error() + "\njq: 1 compile error\n")
		return t.end(3)
	}
	named := map[string]any{}
	for k, v := range cfg.named {
		named[k] = v
	}
	if cfg.positional == nil {
		cfg.positional = []any{}
	}
	args := map[string]any{"positional": cfg.positional, "named": named}
	cfg.orders.record(named, cfg.namedKeys)
	cfg.orders.record(args, []string{"positional", "named"})
	cfg.orders.keep()
	names := append(append([]string(nil), cfg.varNames...), "$ARGS")
	values := append(append([]any(nil), cfg.varValues...), args)
	inputs := newJqInputs(t, cfg)
	code, err := gojq.Compile(query,
		gojq.WithVariables(names),
		gojq.WithEnvironLoader(func() []string { return append([]string(nil), e.Environ...) }),
		gojq.WithModuleLoader(jqNoModules{}),
		gojq.WithInputIter(inputs),
		gojq.WithFunction("input_filename", 0, 0, func(any, []any) any { return inputs.filename() }),
		gojq.WithFunction(jqOrderedKeysFunc, 0, 0, func(v any, _ []any) any { return jqOrderedKeys(v, cfg.orders) }),
		gojq.WithFunction(jqMergeFunc, 1, 1, func(v any, xs []any) any { return jqMergeObjects(v, xs[0], cfg.orders) }),
	)
	if err != nil {
		t.rawStderr("jq: error: " + err.Error() + "\njq: 1 compile error\n")
		return t.end(3)
	}
	return t.end(jqProcess(t, cfg, code, inputs, values))
}

// jqNoModules refuses every import: modules would come from the host.
type jqNoModules struct{}

func (jqNoModules) LoadModule(name string) (*gojq.Query, error) {
	return nil, errors.New("module not found: " + name + " (gatehouse loads no jq modules)")
}

func jqReadFile(t *tool, name string) (string, error) {
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		return "", err
	}
	defer closeIn()
	data, err := io.ReadAll(in)
	return string(data), err
}

// jqWatch is the heap watchdog's handle on a jq run (Env.Watch): the
// program answers its measurements while it runs, and the watchdog
// measures it itself between two of its steps.
type jqWatch interface {
	gojq.Measurer
	Suspended(measure func() (int64, bool))
}

// jqVM is the program running, with a lock held while it steps: between
// two steps what it holds does not change, and may be measured.
type jqVM struct {
	mu   sync.Mutex
	iter gojq.Iter
}

func (vm *jqVM) run(iter gojq.Iter) gojq.Iter {
	vm.mu.Lock()
	vm.iter = iter
	vm.mu.Unlock()
	return iter
}

func (vm *jqVM) next(iter gojq.Iter) (any, bool) {
	vm.mu.Lock()
	defer vm.mu.Unlock()
	return iter.Next()
}

// measure is what the program holds, false while it steps. Between two
// inputs it holds nothing.
func (vm *jqVM) measure(limit int64) func() (int64, bool) {
	return func() (int64, bool) {
		if !vm.mu.TryLock() {
			return 0, false
		}
		defer vm.mu.Unlock()
		if vm.iter == nil {
			return 0, true
		}
		return gojq.MeasureIter(vm.iter, limit), true
	}
}

// jqProcess runs the filter over every input and settles the status.
func jqProcess(t *tool, cfg *jqConfig, code *gojq.Code, inputs *jqInputs, values []any) int {
	status := 0
	printed, lastTruthy := false, true
	ctx := t.ctx
	vm := &jqVM{}
	if w, ok := t.env.Watch.(jqWatch); ok {
		ctx = gojq.WithMeasurer(ctx, w)
		w.Suspended(vm.measure(w.Limit()))
	}
	runOne := func(v any) bool {
		defer cfg.orders.reset()
		iter := vm.run(code.RunWithContext(ctx, v, values...))
		defer vm.run(nil)
		for {
			out, ok := vm.next(iter)
			if !ok {
				return true
			}
			if err, isErr := out.(error); isErr {
				var halt *gojq.HaltError
				if errors.As(err, &halt) {
					jqHalt(t, cfg, halt)
					status = halt.ExitCode()
					return false
				}
				if t.ctx.Err() != nil {
					return false
				}
				t.rawStderr(jqRuntimeError(inputs, err))
				status = 5
				return true
			}
			printed = true
			lastTruthy = out != nil && out != false
			if !jqWrite(t, cfg, out) {
				return false
			}
		}
	}
	if cfg.nullInput {
		runOne(nil)
	} else if cfg.slurp {
		all := []any{}
		var rawAll strings.Builder
		for {
			v, ok := inputs.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				t.rawStderr(err.Error() + "\n")
				break
			}
			if cfg.rawInput {
				rawAll.WriteString(v.(string))
			} else {
				all = append(all, v)
			}
		}
		if cfg.rawInput {
			runOne(rawAll.String())
		} else if !inputs.badJSON {
			runOne(all)
		}
	} else {
		for !t.stopped() {
			v, ok := inputs.Next()
			if !ok {
				break
			}
			if err, isErr := v.(error); isErr {
				t.rawStderr(err.Error() + "\n")
				break
			}
			if !runOne(v) {
				break
			}
		}
	}
	// As jq 1.6: an unreadable file wins over everything (2), then input
	// that did not parse (4, and nothing after it was read).
	switch {
	case inputs.failed:
		return 2
	case inputs.badJSON:
		return 4
	}
	if cfg.exitStatus && status == 0 {
		switch {
		case !printed:
			status = 4
		case !lastTruthy:
			status = 1
		}
	}
	return status
}

// jqHalt prints halt_error's value: a string as is, anything else as
// JSON on a line.
func jqHalt(t *tool, cfg *jqConfig, halt *gojq.HaltError) {
	v := halt.Value()
	if v == nil {
		return
	}
	if s, ok := v.(string); ok {
		t.rawStderr(s)
		return
	}
	t.rawStderr(jqEncode(v, &jqConfig{compact: true, orders: cfg.orders}) + "\n")
}

// jqRuntimeError frames a filter error the way jq does.
func jqRuntimeError(inputs *jqInputs, err error) string {
	where := inputs.position()
	var verr gojq.ValueError
	if errors.As(err, &verr) {
		if s, ok := verr.Value().(string); ok {
			return "jq: error (at " + where + "): " + s + "\n"
		}
		return "jq: error (at " + where + ") (not a string): " + jqEncode(verr.Value(), &jqConfig{compact: true, orders: inputs.cfg.orders}) + "\n"
	}
	return "jq: error (at " + where + "): " + jqErrorText(err.Error()) + "\n"
}

// jqBinopPast is jq's participle for an operator gojq names by its verb.
var jqBinopPast = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"add": "added", "subtract": "subtracted", "multiply": "multiplied", "divide": "divided"}
}}

// jqErrorText words gojq's commonest errors as jq does ("Cannot iterate
// over number (1)", "number (1) and string ("a") cannot be added"); other
// texts are gojq's own.
func jqErrorText(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "cannot iterate over: "); ok {
		return "Cannot iterate over " + rest
	}
	if rest, ok := strings.CutPrefix(msg, "cannot "); ok {
		verb, operands, found := strings.Cut(rest, ": ")
		if past := jqBinopPast.Get()[verb]; found && past != "" && strings.Contains(operands, " and ") {
			return operands + " cannot be " + past
		}
		if l, r, found := strings.Cut(rest, " by: "); found {
			switch {
			case strings.HasPrefix(l, "modulo "):
				return strings.TrimPrefix(l, "modulo ") + " and " + r + " cannot be divided (remainder) because the divisor is zero"
			case strings.HasPrefix(l, "divide "):
				return strings.TrimPrefix(l, "divide ") + " and " + r + " cannot be divided because the divisor is zero"
			}
		}
	}
	return msg
}

// jqWrite prints one result; it reports whether stdout still works.
func jqWrite(t *tool, cfg *jqConfig, v any) bool {
	var text string
	if s, ok := v.(string); ok && cfg.raw {
		text = s
	} else {
		rest, ok := jqEncodeTo(v, cfg, func(s string) bool { return !t.stopped() && t.writeString(s) })
		if !ok {
			return false
		}
		text = rest
	}
	if !cfg.join {
		text += "\n"
	}
	return t.writeString(text)
}

// jqMaxNesting bounds how deeply a jq program may nest (parentheses,
// brackets, objects, chains of operators and pipes). gojq compiles and runs
// a program by recursion on its tree, and an exhausted goroutine stack ends
// the whole process, not just the line (G-12.3).
const jqMaxNesting = 2000

// jqTreeDepth measures how deeply the parsed program's nodes nest, walking
// them without recursion (the parser itself builds the tree iteratively).
func jqTreeDepth(query *gojq.Query) int {
	type item struct {
		v     reflect.Value
		depth int
	}
	deepest := 0
	stack := []item{{reflect.ValueOf(query), 0}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v, depth := it.v, it.depth
		if depth > deepest {
			deepest = depth
			if deepest > jqMaxNesting {
				return deepest
			}
		}
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				stack = append(stack, item{v.Elem(), depth + 1})
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				stack = append(stack, item{v.Field(i), depth})
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				stack = append(stack, item{v.Index(i), depth})
			}
		}
	}
	return deepest
}
