package gojq

import "context"

type env struct {
	pc        int
	stack     *stack[any]
	paths     *stack[pathValue]
	scopes    *stack[scope]
	values    []any
	codes     []*code
	codeinfos []codeinfo
	forks     []fork
	backtrack bool
	offset    int
	expdepth  int
	label     int
	args      [32]any // len(env.args) > maxarity
	ctx       context.Context
	measurer  Measurer // patch 2
	steps     int      // patch 2
	// Patch 6: what the program built since it last measured, when it
	// measures next, and what its input holds (known once measured).
	built, nextMeasure, base int64
	stacksSeen               int64
	baseKnown                bool
	input                    any
	inputVars                []any
}

func newEnv(ctx context.Context) *env {
	return &env{
		stack:    newStack[any](),
		paths:    newStack[pathValue](),
		scopes:   newStack[scope](),
		ctx:      ctx,
		measurer: measurerOf(ctx), // patch 2
	}
}

type scope struct {
	id         int
	offset     int
	pc         int
	saveindex  int
	outerindex int
}

type fork struct {
	pc         int
	stackindex int
	stacklimit int
	scopeindex int
	scopelimit int
	pathindex  int
	pathlimit  int
	offset     int
	expdepth   int
}
