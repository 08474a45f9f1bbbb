package gate

import (
	"slices"
	"sync"
	"sync/atomic"

	"gatehouse/core/vfs"
)

// OpMemo remembers a program's pre_ops answers within one command (G-6.3).
// A hook is deterministic given its ctx: its globals are frozen, the
// command's facts are fixed for the command, and a call that read a file
// (open, is_file) is never remembered. So when a call read only some of the
// op's fields, any later op with the same values in those fields takes the
// same path through the hook and gets the same answer. A recursive grep
// whose hook looks only at op["write"] then runs the program once, not once
// per file.
type OpMemo struct {
	// last is the answer found last: a run of ops agreeing on what the
	// hook reads (every read of a recursive grep) costs a comparison.
	last    atomic.Pointer[memoHit]
	mu      sync.Mutex
	masks   []OpFields // the sets of fields calls have read
	answers map[memoKey]*memoHit
}

// OpFields is a set of the op fields a hook read: ctx["op"]["name"] and so
// on.
type OpFields uint8

// The op fields a hook can read.
const (
	FieldName OpFields = 1 << iota
	FieldPath
	FieldWrite
	FieldPrefix
)

// memoKey is an op with the fields a call did not read zeroed: comparing
// keys compares exactly what the hook saw.
type memoKey struct {
	mask               OpFields
	write              bool
	name, path, prefix string
}

func keyOf(mask OpFields, name, path, prefix string, write bool) memoKey {
	k := memoKey{mask: mask}
	if mask&FieldName != 0 {
		k.name = name
	}
	if mask&FieldPath != 0 {
		k.path = path
	}
	if mask&FieldWrite != 0 {
		k.write = write
	}
	if mask&FieldPrefix != 0 {
		k.prefix = prefix
	}
	return k
}

// matches reports whether op agrees with k on every field k's call read,
// comparing only those (the hot path of every op of a command).
func (k *memoKey) matches(op *vfs.Op) bool {
	m := k.mask
	return (m&FieldWrite == 0 || k.write == op.Write) &&
		(m&FieldName == 0 || k.name == op.Name) &&
		(m&FieldPath == 0 || k.path == op.Path) &&
		(m&FieldPrefix == 0 || k.prefix == op.Prefix)
}

// memoHit is one remembered answer with its key, so that the last hit can
// be compared without a map lookup.
type memoHit struct {
	key memoKey
	d   Decision
}

// lookupHit finds an earlier answer for op, as the entry that holds it; a
// repeated hit allocates nothing, as the door asks it for every op.
func (m *OpMemo) lookupHit(op *vfs.Op) (*memoHit, bool) {
	if h := m.last.Load(); h != nil && h.key.matches(op) {
		return h, true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, mask := range m.masks {
		k := keyOf(mask, op.Name, op.Path, op.Prefix, op.Write)
		if h := m.answers[k]; h != nil {
			m.last.Store(h)
			return h, true
		}
	}
	return nil, false
}

// Remember stores d as the answer of a pre_ops call on op that read only
// the fields read, for every later op of the command that agrees on them.
// An engine calls it only when it knows what the call read, and never for
// a call that read a file.
func (m *OpMemo) Remember(read OpFields, op *OpInfo, d Decision) {
	mask := read
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.answers == nil {
		m.answers = map[memoKey]*memoHit{}
	}
	if !slices.Contains(m.masks, mask) {
		m.masks = append(m.masks, mask)
	}
	if len(m.answers) < 4096 { // bounded: a hook reading every path memoises nothing useful
		k := keyOf(mask, op.Name, op.Path, op.Prefix, op.Write)
		m.answers[k] = &memoHit{k, d}
	}
}
