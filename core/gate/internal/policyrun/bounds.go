package policyrun

// What a policy program may build in one step. The time-out stops a
// program between steps, but not inside one builtin: `new Array(3e7).fill(0)`
// or `"a".repeat(1 << 29)` would run for seconds and take gigabytes in a
// single call, and JSON.parse of "[[[[…" a few million deep recurses until
// the Go stack overflows, which no recover survives. So the builtins whose
// work is set by an argument or a length, rather than by data the program
// already holds, refuse past these bounds, and the call ends with an
// error like any other exception (G-8.4). Each engine applies them to its
// own builtins.
const (
	// MaxElements bounds an array a builtin walks or fills, and a
	// Starlark range.
	MaxElements = 1 << 22
	// MaxString bounds a string repeat or padStart/padEnd builds, in
	// UTF-16 units.
	MaxString = 1 << 24
	// MaxNesting bounds the nesting of JSON a program parses, and its call
	// depth.
	MaxNesting = 1000
)
