package core

// Bypass attempts on builtins the profile leaves out (G-3.2: builtins are
// subjects like everything else, and some of them are syntax to the parser:
// let, readonly, typeset). Each line makes the builtin's effect visible; the
// twin spells a name nothing provides (see bypass_test.go).

var bypassMissingBuiltins = bypassTechnique{name: "not-installed builtins", cases: []bypassCase{
	builtinCase("let", `let x=5; echo "[$x]"`),
	builtinCase("let", `let "x = 2 * 3"; echo "[$x]"`),
	builtinCase("let", `f() { let y=7; echo "[$y]"; }; f`),
	builtinCase("let", `printf 'echo a\nlet x=5\necho "[$x]"\n' > /tmp/l.sh; bash /tmp/l.sh`),
	builtinCase("let", `printf 'f() {\n  let x=5\n}\n' > /tmp/l.sh; . /tmp/l.sh; f; echo "[$x]"`),
	builtinCase("let", `f() {
  let x=5
}
f; echo "[$x]"`),
	builtinCase("let", `eval 'let x=5'; echo "[$x]"`),
	builtinCase("let", `bash -c 'let x=5; echo "[$x]"'`),
	builtinCase("let", `command let x=5; echo "[$x]"`),
	builtinCase("let", `builtin let x=5; echo "[$x]"`),
	builtinCase("readonly", `readonly r=1; echo "[$r]"`),
	builtinCase("readonly", `readonly -p`),
	builtinCase("typeset", `typeset t=1; echo "[$t]"`),
	builtinCase("typeset", `typeset -p TEAM`),
	builtinCase("shift", `set -- a b; shift; echo "$1"`),
	builtinCase("getopts", `getopts a o -a; echo "[$o]"`),
	builtinCase("umask", `umask 077; umask`),
	builtinCase("return", `f() { return 3; }; f; echo $?`),
	builtinCase("break", `for i in 1 2 3; do break; done; echo "[$i]"`),
	builtinCase("continue", `for i in 1 2; do continue; echo no; done; echo "[$i]"`),
	builtinCase("exit", `exit 7`),
	builtinCase("exit", `(exit 7); echo $?`),
	builtinCase("pushd", `pushd /tmp >/dev/null; pwd`),
	builtinCase("dirs", `dirs`),
	builtinCase("unalias", `unalias -a; alias`),
	builtinCase("enable", `enable -n echo; echo still`),
	builtinCase("kill", `kill -0 $$; echo $?`),
	builtinCase("jobs", `sleep 0 & jobs; wait`),
	builtinCase("times", `times`),
	builtinCase("caller", `f() { caller; }; f`),
	builtinCase("ulimit", `ulimit -n`),
	builtinCase("history", `history`),
}}
