package starlark

import (
	"fmt"

	"go.starlark.net/starlark"

	"gatehouse/core/gate/internal/policyrun"
)

// boundedRange is Starlark's range, refusing more than policyrun.MaxElements
// elements (list(range(1 << 27)) would take two gigabytes in one step).
func boundedRange(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	v, err := starlark.Call(thread, starlark.Universe["range"], args, kwargs)
	if err != nil {
		return nil, err
	}
	if seq, ok := v.(starlark.Sequence); ok && seq.Len() > policyrun.MaxElements {
		return nil, fmt.Errorf("range: more than %d elements", policyrun.MaxElements)
	}
	return v, nil
}
