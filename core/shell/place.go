package shell

import (
	"context"
	"strconv"
	"sync/atomic"
)

// A place is where a command sits in a line (G-9.2): the byte offset of its
// call in the text being run, prefixed by the places of the constructs that
// evaluate that text ("12" at top level; "12/0" for the first call inside an
// `eval` at offset 12; "12/x" for what xargs at offset 12 runs). Places are
// plain strings so they compare, hash and store without ceremony.

// frame is the enclosing evaluation context, carried in the context.Context
// handed to nested runs (eval, source, bash -c, function calls).
type frame struct {
	prefix string // place of the evaluating construct + "/", or ""
	depth  int
	// direct marks the one function call an eval frame was made for, so the
	// call handler lets it through instead of framing it again.
	direct     string
	directUsed *atomic.Bool
}

type frameKey struct{}

func frameOf(ctx context.Context) *frame {
	if f, ok := ctx.Value(frameKey{}).(*frame); ok {
		return f
	}
	return &frame{}
}

func withFrame(ctx context.Context, f *frame) context.Context {
	return context.WithValue(ctx, frameKey{}, f)
}

// placeAt joins a frame's prefix with an offset in the text being run.
func placeAt(prefix string, offset uint) string {
	return prefix + strconv.FormatUint(uint64(offset), 10)
}

// nestedPrefix is the prefix for text evaluated by the construct at place.
func nestedPrefix(place string) string { return place + "/" }
