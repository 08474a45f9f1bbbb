// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package interp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// declOpts are the options of one declare, typeset, local, export or
// readonly command.
type declOpts struct {
	variant  string
	on, off  string // attribute letters turned on (-x) and off (+x)
	print    bool   // -p
	funcs    bool   // -f
	funcName bool   // -F
	global   bool   // -g
	local    bool   // the variables are the function's own
	// bound are the prefix bindings of "x=1 local x" (patch 129): a new
	// local of such a name starts as the binding, value and export.
	bound map[string]bool
}

// declClause runs a declaration command as bash's declare builtin does.
func (r *Runner) declClause(ctx context.Context, cm *syntax.DeclClause) {
	o := declOpts{variant: cm.Variant.Value}
	switch o.variant {
	case "declare", "typeset":
	case "local":
		if !r.inFunc {
			r.errf("bash: local: can only be used in a function\n")
			r.exit.code = 1
			return
		}
	case "export":
		o.on = "x"
	case "readonly":
		o.on = "r"
	case "nameref":
		o.on = "n"
	}
	var args []*syntax.Assign
	options := true
	for as := range r.flattenAssigns(cm.Args) {
		if options && as.Naked && as.Index == nil && as.Name != nil {
			arg := as.Name.Value
			if arg == "--" {
				options = false
				continue
			}
			if len(arg) > 1 && (arg[0] == '-' || arg[0] == '+') {
				if !r.declOption(&o, arg) {
					return
				}
				continue
			}
		}
		options = false
		args = append(args, as)
	}
	if r.exit.exiting {
		return
	}
	o.local = r.inFunc && !o.global && o.variant != "export" && o.variant != "readonly"
	if len(cm.Assigns) > 0 {
		args = r.declValuesFirst(args)
		if r.exit.exiting {
			return
		}
		undo, ok := r.bindDeclPrefix(cm.Assigns, declKeeps(o, args), o.local)
		o.bound = map[string]bool{}
		for _, as := range cm.Assigns {
			o.bound[as.Name.Value] = true
		}
		defer undo()
		if !ok {
			r.exit.code = 1
			return
		}
	}
	if o.funcs || o.funcName {
		r.declFuncs(o, args)
		return
	}
	if o.print || len(args) == 0 {
		r.declPrintAll(o, args)
		return
	}
	oldWriter := r.varWriter
	r.varWriter = o.variant
	defer func() { r.varWriter = oldWriter }()
	for _, as := range args {
		r.declOne(o, as)
		if r.exit.exiting {
			return
		}
	}
}

// declOption reads one option word such as -ai or +x; false means a usage
// error, reported.
func (r *Runner) declOption(o *declOpts, arg string) bool {
	valid := "aAfFgilnprtux"
	switch o.variant {
	case "export":
		valid = "fnp"
	case "readonly":
		valid = "aAfp"
	case "local":
		valid = "aAilnprtux"
	}
	for _, c := range arg[1:] {
		if !strings.ContainsRune(valid, c) {
			r.errf("bash: %s: %c%c: invalid option\n", o.variant, arg[0], c)
			r.errf("%s: usage: %s\n", o.variant, declUsage(o.variant))
			r.exit.code = 2
			return false
		}
		switch c {
		case 'p':
			o.print = true
		case 'f':
			o.funcs = true
		case 'F':
			o.funcName = true
		case 'g':
			o.global = true
		case 'n':
			if o.variant == "export" {
				// export -n takes the export attribute away.
				o.on = strings.ReplaceAll(o.on, "x", "")
				o.off += "x"
				continue
			}
			fallthrough
		default:
			if arg[0] == '-' {
				o.on += string(c)
			} else {
				o.off += string(c)
			}
		}
	}
	return true
}

func declUsage(variant string) string {
	switch variant {
	case "export":
		return "export [-fn] [name[=value] ...] or export -p"
	case "readonly":
		return "readonly [-aAf] [name[=value] ...] or readonly -p"
	case "local":
		return "local [option] name[=value] ..."
	}
	return variant + " [-aAfFgiIlnrtux] [name[=value] ...] or " + variant + " -p [-aAfFilnrtux] [name ...]"
}

// declFuncs answers -f (definitions) and -F (names only).
func (r *Runner) declFuncs(o declOpts, args []*syntax.Assign) {
	names := make([]string, 0, len(args))
	for _, as := range args {
		names = append(names, as.Name.Value)
	}
	if len(names) == 0 {
		for name := range r.Funcs {
			names = append(names, name)
		}
		slices.Sort(names)
	}
	for _, name := range names {
		body := r.Funcs[name]
		if body == nil {
			if len(args) > 0 {
				r.exit.code = 1
			}
			continue
		}
		switch {
		case o.funcName && len(args) > 0:
			r.outf("%s\n", name)
		case o.funcName:
			r.outf("declare -f %s\n", name)
		default:
			text, _ := r.FuncText(name)
			r.outf("%s\n", text)
		}
	}
}

// declPrintAll prints the variables named, or all the variables with the
// attributes asked for, as declare -p does.
func (r *Runner) declPrintAll(o declOpts, args []*syntax.Assign) {
	if len(args) > 0 {
		for _, as := range args {
			name := as.Name.Value
			vr := r.lookupVar(name)
			if !vr.Declared() {
				r.errf("bash: %s: %s: not found\n", o.variant, name)
				r.exit.code = 1
				continue
			}
			r.out(declLine(name, vr))
		}
		return
	}
	seen := map[string]expand.Variable{}
	for name, vr := range r.writeEnv.Each {
		seen[name] = vr
	}
	names := make([]string, 0, len(seen))
	for name, vr := range seen {
		if vr.Declared() && declHasAttrs(vr, o.on) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		vr := seen[name]
		if !o.print && o.on == "" && o.variant != "export" && o.variant != "readonly" {
			// A bare declare lists name=value.
			if vr.IsSet() {
				r.out(strings.TrimPrefix(declLine(name, vr), "declare -"+declFlags(vr)+" "))
			}
			continue
		}
		r.out(declLine(name, vr))
	}
}

// declHasAttrs reports whether vr has every attribute letter in attrs.
func declHasAttrs(vr expand.Variable, attrs string) bool {
	flags := vr.Flags()
	for _, c := range attrs {
		if !strings.ContainsRune(flags, c) {
			return false
		}
	}
	return true
}

func declFlags(vr expand.Variable) string {
	if flags := vr.Flags(); flags != "" {
		return flags
	}
	return "-"
}

// declLine is how declare -p prints a variable.
func declLine(name string, vr expand.Variable) string {
	var sb strings.Builder
	sb.WriteString("declare -" + declFlags(vr) + " " + name)
	if !vr.IsSet() {
		sb.WriteString("\n")
		return sb.String()
	}
	switch vr.Kind {
	case expand.Indexed:
		sb.WriteString("=(")
		for i, v := range vr.List {
			if i > 0 {
				sb.WriteByte(' ')
			}
			idx := i
			if vr.Indexes != nil {
				idx = vr.Indexes[i]
			}
			sb.WriteString("[" + strconv.Itoa(idx) + "]=" + DeclQuote(v))
		}
		sb.WriteString(")\n")
	case expand.Associative:
		sb.WriteString("=(")
		for _, k := range expand.AssocKeys(vr) {
			sb.WriteString("[" + declKey(k) + "]=" + DeclQuote(vr.Map[k]) + " ")
		}
		sb.WriteString(")\n")
	default:
		sb.WriteString("=" + DeclQuote(vr.Str) + "\n")
	}
	return sb.String()
}

// DeclQuote quotes a value as declare -p prints it: in double quotes, or
// in $'…' when it holds characters that cannot be printed.
func DeclQuote(s string) string {
	if needsANSIC(s) {
		return ansicQuote(s)
	}
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '$', '`':
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	sb.WriteByte('"')
	return sb.String()
}

// declKey quotes an associative array's key only when it needs it.
func declKey(k string) string {
	if k != "" && !strings.ContainsAny(k, " \t\n'\"\\|&;()<>!{}*[]?^$`~#=%") && !needsANSIC(k) {
		return k
	}
	return DeclQuote(k)
}

func needsANSIC(s string) bool {
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 || c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) {
			return true
		}
		i += size
	}
	return false
}

// ansicQuote quotes s as $'…', as bash's ansic_quote does.
func ansicQuote(s string) string {
	var sb strings.Builder
	sb.WriteString("$'")
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == '\a':
			sb.WriteString(`\a`)
		case c == '\b':
			sb.WriteString(`\b`)
		case c == 0x1b:
			sb.WriteString(`\E`)
		case c == '\f':
			sb.WriteString(`\f`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\v':
			sb.WriteString(`\v`)
		case c == '\\' || c == '\'':
			sb.WriteByte('\\')
			sb.WriteRune(c)
		case c == utf8.RuneError && size == 1, c < 0x20, c == 0x7f:
			fmt.Fprintf(&sb, "\\%03o", s[i])
		default:
			sb.WriteString(s[i : i+size])
		}
		i += size
	}
	sb.WriteByte('\'')
	return sb.String()
}

// declOne declares one name, with or without a value.
func (r *Runner) declOne(o declOpts, as *syntax.Assign) {
	name := as.Name.Value
	if !syntax.ValidName(name) {
		text := name
		if !as.Naked {
			text += "=" + r.literal(as.Value)
		}
		r.errf("bash: %s: `%s': not a valid identifier\n", o.variant, text)
		r.exit.code = 1
		return
	}
	env := r.writeEnv
	if o.global {
		env = r.globalEnv()
	}
	prev := env.Get(name)
	if prev.ReadOnly && (!as.Naked || strings.Contains(o.off, "r") || (o.local && !r.ownLocal(name))) {
		if o.variant == "export" || o.variant == "readonly" {
			r.errf("bash: %s: readonly variable\n", name)
		} else {
			r.errf("bash: %s: %s: readonly variable\n", o.variant, name)
		}
		r.exit.code = 1
		return
	}
	if o.local && !r.ownLocal(name) {
		// A new local starts unset, with no attributes but export's,
		// or as the prefix binding of its name.
		if o.bound[name] {
			prev.Local = true
		} else {
			prev = expand.Variable{Local: true}
		}
	}
	if o.variant == "readonly" && as.Naked && !prev.IsSet() {
		// bash's readonly -a NAME keeps no array type for an unset NAME.
		o.on = strings.NewReplacer("a", "", "A", "").Replace(o.on)
	}
	vr := prev
	vr.Local = o.local || (prev.Local && !o.global)
	if strings.ContainsRune(o.on, 'A') && prev.Kind == expand.Indexed && prev.IsSet() {
		r.errf("bash: %s: %s: cannot convert indexed to associative array\n", o.variant, name)
		r.exit.code = 1
		return
	}
	if strings.ContainsRune(o.on, 'a') && prev.Kind == expand.Associative {
		r.errf("bash: %s: %s: cannot convert associative to indexed array\n", o.variant, name)
		r.exit.code = 1
		return
	}
	declSetAttrs(&vr, o.on, true)
	declSetAttrs(&vr, o.off, false)
	switch {
	case strings.ContainsRune(o.on, 'A') && vr.Kind != expand.Associative:
		if vr.Kind == expand.String && vr.IsSet() {
			vr = expand.AssocSet(vr, "0", vr.Str)
			vr.Str = ""
		} else {
			vr.Kind = expand.Associative
		}
	case strings.ContainsRune(o.on, 'a') && vr.Kind != expand.Indexed:
		if vr.Kind == expand.String && vr.IsSet() {
			vr.List, vr.Indexes = []string{vr.Str}, nil
			vr.Str = ""
		}
		vr.Kind = expand.Indexed
	case strings.ContainsRune(o.on, 'n'):
		vr.Kind = expand.NameRef
	case strings.ContainsRune(o.off, 'n') && vr.Kind == expand.NameRef:
		vr.Kind = expand.String
	}
	if as.Naked && vr.Kind == expand.Unknown {
		// declare x: declared, with no value yet.
		vr.Kind = expand.String
	}
	if as.Naked && prev.ReadOnly && vr.Kind == prev.Kind {
		// Only attributes change: a read-only value may keep its value.
		vr.Kind = expand.KeepValue
	}
	if !as.Naked {
		if vr.Kind == expand.NameRef && as.Array == nil {
			vr.Set, vr.Str = true, r.assignLiteral(as.Value)
			if target, _, _ := strings.Cut(vr.Str, "["); target == name && !r.inFunc {
				// bash refuses a reference to itself outside a
				// function (patch 124).
				r.errf("bash: %s: %s: nameref variable self references not allowed\n", o.variant, name)
				r.exit.code = 1
				return
			}
		} else {
			refusals := r.varRefusals
			vr = r.assignNew(name, vr, as)
			if r.exit.exiting {
				return
			}
			if r.varRefusals != refusals {
				r.exit.code = 1 // a write on the way was refused
				return
			}
		}
	}
	if err := r.setVarIn(env, name, vr); err != nil {
		if isVarRefused(err) {
			r.errf("%v\n", err) // worded by the handler
		} else {
			r.errf("bash: %s: %v\n", o.variant, err)
		}
		r.exit.code = 1
	}
}

// declSetAttrs turns the attributes named by letters on or off.
func declSetAttrs(vr *expand.Variable, letters string, on bool) {
	for _, c := range letters {
		switch c {
		case 'x':
			vr.Exported = on
		case 'r':
			vr.ReadOnly = vr.ReadOnly || on
		case 'i':
			vr.Integer = on
		case 't':
			vr.Trace = on
		case 'l':
			vr.Lower = on
			if on {
				vr.Upper = false
			}
		case 'u':
			vr.Upper = on
			if on {
				vr.Lower = false
			}
		}
	}
}

// globalEnv is the environment outside every function call.
func (r *Runner) globalEnv() expand.WriteEnviron {
	env := r.writeEnv
	for {
		o, ok := env.(*overlayEnviron)
		if !ok || !o.funcScope {
			return env
		}
		env = o.parent.(expand.WriteEnviron)
	}
}

// ownLocal reports whether name is a local variable of the running
// function itself, rather than of a caller.
func (r *Runner) ownLocal(name string) bool {
	o, ok := r.writeEnv.(*overlayEnviron)
	if !ok || !o.funcScope {
		return false
	}
	vr, ok := o.values[o.normalize(name)]
	return ok && vr.Local
}

// setVarIn is setVarErr writing to env rather than the current scope.
func (r *Runner) setVarIn(env expand.WriteEnviron, name string, vr expand.Variable) error {
	if env == r.writeEnv {
		return r.setVarErr(name, vr)
	}
	saved := r.writeEnv
	r.writeEnv = env
	defer func() { r.writeEnv = saved }()
	vr.Local = false
	return r.setVarErr(name, vr)
}

// attrValue applies vr's value attributes to val being assigned to it:
// -i evaluates it (adding old with app), -l and -u convert its case;
// without -i, app appends val to old.
func (r *Runner) attrValue(vr expand.Variable, old, val string, app bool) string {
	if vr.Integer {
		n, err := expand.ArithmString(r.ecfg, val)
		if err != nil {
			r.expandErr(err)
			return old
		}
		if app {
			m, err := expand.ArithmString(r.ecfg, old)
			if err != nil {
				r.expandErr(err)
				return old
			}
			n += m
		}
		return strconv.Itoa(n)
	}
	if app {
		val = old + val
	}
	switch {
	case vr.Lower:
		val = strings.ToLower(val)
	case vr.Upper:
		val = strings.ToUpper(val)
	}
	return val
}
