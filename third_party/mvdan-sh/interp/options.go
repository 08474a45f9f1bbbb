// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import "slices"

// set and shopt as bash 5.2 answers them (gatehouse patch 159).

// setUsageError is a bad set flag, which bash follows with its usage line.
type setUsageError struct{ msg string }

func (e setUsageError) Error() string { return e.msg }

// setOnlyOpts are set -o's options beyond posixOptsTable, with the state
// a bash -c shell has them in. Those with accept set may be set (any way,
// or only on, when onOnly), changing nothing here: job control, history
// and line editing belong to an interactive shell; hashing, brace
// expansion and comments are always on.
var setOnlyOpts = [...]struct {
	name   string
	flag   byte
	on     bool
	accept bool
	onOnly bool
}{
	{"braceexpand", 'B', true, true, true},
	{"emacs", 0, false, true, false},
	{"hashall", 'h', true, true, true},
	{"histexpand", 'H', false, true, false},
	{"history", 0, false, true, false},
	{"ignoreeof", 0, false, true, false},
	{"interactive-comments", 0, true, true, true},
	{"keyword", 'k', false, false, false},
	{"monitor", 'm', false, true, false},
	{"nolog", 0, false, true, false},
	{"notify", 'b', false, true, false},
	{"onecmd", 't', false, false, false},
	{"physical", 'P', false, false, false},
	{"posix", 0, false, false, false},
	{"privileged", 'p', false, false, false},
	{"verbose", 'v', false, false, false},
	{"vi", 0, false, true, false},
}

// setOnly is whether setOnlyOpts[i] is on: its default, unless the
// runner's setOnly bit i says it was changed.
func (r *Runner) setOnlyOn(i int) bool {
	return setOnlyOpts[i].on != (r.setOnly&(1<<i) != 0)
}

// acceptSet sets option i of setOnlyOpts if it may be set so.
func (r *Runner) acceptSet(i int, enable bool) bool {
	o := setOnlyOpts[i]
	if !o.accept || !enable && o.onOnly {
		return false
	}
	if enable == o.on {
		r.setOnly &^= 1 << i
	} else {
		r.setOnly |= 1 << i
	}
	return true
}

// acceptedSetFlag: set -f or +f for a flag of setOnlyOpts, which changes
// nothing here but $- and the listings.
func (r *Runner) acceptedSetFlag(f byte, enable bool) bool {
	for i, o := range setOnlyOpts {
		if o.flag == f {
			return r.acceptSet(i, enable)
		}
	}
	return false
}

// acceptedSetOpt is acceptedSetFlag for set -o NAME.
func (r *Runner) acceptedSetOpt(name string, enable bool) bool {
	for i, o := range setOnlyOpts {
		if o.name == name {
			return r.acceptSet(i, enable)
		}
	}
	return false
}

// setOnlyFlag reports whether flag f is one of setOnlyOpts and on.
func (r *Runner) setOnlyFlag(f byte) bool {
	for i, o := range setOnlyOpts {
		if o.flag == f {
			return r.setOnlyOn(i)
		}
	}
	return false
}

type optState struct {
	name      string
	on        bool
	ptr       *bool // nil: not settable here
	supported bool
}

// setOpts are set -o's options in bash's order (by name).
func (r *Runner) setOpts() []optState {
	var opts []optState
	for i, o := range &posixOptsTable {
		opts = append(opts, optState{name: o.name, on: r.opts[i], ptr: &r.opts[i], supported: true})
	}
	for i, o := range setOnlyOpts {
		opts = append(opts, optState{name: o.name, on: r.setOnlyOn(i)})
	}
	slices.SortFunc(opts, func(a, b optState) int {
		if a.name < b.name {
			return -1
		}
		return 1
	})
	return opts
}

// byName orders options as bash lists them: by name, but autocd first.
func byName(a, b optState) int {
	ka, kb := a.name, b.name
	if ka == "autocd" {
		ka = "a"
	}
	if kb == "autocd" {
		kb = "a"
	}
	if ka < kb {
		return -1
	}
	return 1
}

// shoptOpts are shopt's options, as bash lists them.
func (r *Runner) shoptOpts() []optState {
	var opts []optState
	for i, o := range bashOptsTable {
		st := optState{name: o.name, on: o.defaultState, supported: o.supported}
		if o.supported {
			st.ptr = &r.opts[len(posixOptsTable)+i]
			st.on = *st.ptr
		}
		opts = append(opts, st)
	}
	slices.SortFunc(opts, byName)
	return opts
}

// listSetOpts is set -o (all options and their states) or set +o (the
// commands that set them so).
func (r *Runner) listSetOpts(states bool) {
	for _, o := range r.setOpts() {
		if states {
			r.printOptLine(o.name, o.on)
		} else if o.on {
			r.outf("set -o %s\n", o.name)
		} else {
			r.outf("set +o %s\n", o.name)
		}
	}
}

// shopt is the shopt builtin; it returns its status.
func (r *Runner) shopt(args []string) uint8 {
	mode, setOpts, quiet, reusable := byte(0), false, false, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		for _, c := range []byte(a[1:]) {
			switch c {
			case 's', 'u':
				mode = c
			case 'o':
				setOpts = true
			case 'q':
				quiet = true
			case 'p':
				reusable = true
			default:
				r.errf("bash: shopt: -%c: invalid option\n", c)
				r.errf("shopt: usage: shopt [-pqsu] [-o] [optname ...]\n")
				return 2
			}
		}
	}
	opts := r.shoptOpts()
	if setOpts {
		opts = r.setOpts()
	}
	print := func(o optState) {
		switch {
		case quiet:
		case reusable && setOpts:
			r.outf("set %co %s\n", "+-"[b2i(o.on)], o.name)
		case reusable:
			r.outf("shopt %s %s\n", [2]string{"-u", "-s"}[b2i(o.on)], o.name)
		default:
			r.printOptLine(o.name, o.on)
		}
	}
	names := args[i:]
	if len(names) == 0 {
		for _, o := range opts {
			if mode == 0 || o.on == (mode == 's') {
				print(o)
			}
		}
		return 0
	}
	var code uint8
	for _, name := range names {
		k := slices.IndexFunc(opts, func(o optState) bool { return o.name == name })
		if k < 0 {
			if setOpts {
				r.errf("bash: shopt: %s: invalid option name\n", name)
			} else {
				r.errf("bash: shopt: %s: invalid shell option name\n", name)
			}
			code = 1
			continue
		}
		o := opts[k]
		switch {
		case mode == 0:
			if !o.on {
				code = 1
			}
			print(o)
		case o.ptr != nil:
			*o.ptr = mode == 's'
		case o.on == (mode == 's') || setOpts && r.acceptedSetOpt(name, mode == 's'):
			// Already so, or changes nothing here.
		default:
			r.errf("bash: shopt: %s: not supported here\n", name)
			code = 1
		}
	}
	return code
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
