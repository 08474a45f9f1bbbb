// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"maps"
	"slices"
	"strings"
)

// aliasBuiltin is bash's alias (gatehouse patch 130): a value is any text,
// kept as written and expanded where the text of a line is read; -p and no
// operands list the aliases in name order, quoted for reuse; a name alone
// prints its alias or says it is not found; a name holding a character
// that ends or quotes a word is refused.
func (r *Runner) aliasBuiltin(args []string) exitStatus {
	var exit exitStatus
	print := false
	args, bad, ok := aliasFlags(args, 'p', &print)
	if !ok {
		r.errf("bash: alias: -%c: invalid option\n", bad)
		r.errf("alias: usage: alias [-p] [name[=value] ... ]\n")
		exit.code = 2
		return exit
	}
	if print || len(args) == 0 {
		for _, name := range slices.Sorted(maps.Keys(r.alias)) {
			r.printAlias(name)
		}
	}
	for _, arg := range args {
		name, text, isDef := strings.Cut(arg, "=")
		if !isDef || name == "" {
			if _, ok := r.alias[arg]; !ok {
				r.errf("bash: alias: %s: not found\n", arg)
				exit.code = 1
				continue
			}
			r.printAlias(arg)
			continue
		}
		if strings.ContainsAny(name, " \t\n|&;()<>'\"`\\$/") {
			r.errf("bash: alias: `%s': invalid alias name\n", name)
			exit.code = 1
			continue
		}
		if r.alias == nil {
			r.alias = make(map[string]string)
		}
		r.alias[name] = text
	}
	return exit
}

// printAlias prints one alias as bash's alias -p does.
func (r *Runner) printAlias(name string) {
	lead := "alias "
	if strings.HasPrefix(name, "-") {
		lead = "alias -- "
	}
	r.outf("%s%s='%s'\n", lead, name, strings.ReplaceAll(r.alias[name], "'", `'\''`))
}

// unaliasBuiltin is bash's unalias: -a removes every alias; a name that is
// not an alias is an error, and the others are still removed.
func (r *Runner) unaliasBuiltin(args []string) exitStatus {
	var exit exitStatus
	all := false
	args, bad, ok := aliasFlags(args, 'a', &all)
	if !ok {
		r.errf("bash: unalias: -%c: invalid option\n", bad)
		r.errf("unalias: usage: unalias [-a] name [name ...]\n")
		exit.code = 2
		return exit
	}
	if all {
		clear(r.alias)
		return exit
	}
	if len(args) == 0 {
		r.errf("unalias: usage: unalias [-a] name [name ...]\n")
		exit.code = 2
		return exit
	}
	for _, name := range args {
		if _, ok := r.alias[name]; !ok {
			r.errf("bash: unalias: %s: not found\n", name)
			exit.code = 1
			continue
		}
		delete(r.alias, name)
	}
	return exit
}

// aliasFlags reads the leading options of alias or unalias, which take one
// flag letter each: it returns the operands, or the first letter that is
// not the flag.
func aliasFlags(args []string, letter byte, set *bool) ([]string, byte, bool) {
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			return args[1:], 0, true
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for i := 1; i < len(a); i++ {
			if a[i] != letter {
				return nil, a[i], false
			}
			*set = true
		}
		args = args[1:]
	}
	return args, 0, true
}
