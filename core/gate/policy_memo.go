package gate

import (
	"strings"
	"sync"
)

// opMemo remembers a program's pre_ops answers within one command (G-6.3).
// A hook is deterministic given its ctx: its globals are frozen, the
// command's facts are fixed for the command, and a call that read a file
// (open, is_file) is never remembered. So when a call read only some of the
// op's fields, any later op with the same values in those fields takes the
// same path through the hook and gets the same answer. A recursive grep
// whose hook looks only at op["write"] then runs the program once, not once
// per file.
type opMemo struct {
	mu      sync.Mutex
	masks   []uint8 // the sets of fields calls have read
	answers map[string]Decision
}

// The op fields a hook can read.
const (
	readName uint8 = 1 << iota
	readPath
	readWrite
	readPrefix
)

func memoKey(mask uint8, op *OpInfo) string {
	var b strings.Builder
	b.WriteByte(mask)
	if mask&readName != 0 {
		b.WriteString(op.Name)
	}
	b.WriteByte(0)
	if mask&readPath != 0 {
		b.WriteString(op.Path)
	}
	b.WriteByte(0)
	if mask&readWrite != 0 && op.Write {
		b.WriteByte(1)
	}
	b.WriteByte(0)
	if mask&readPrefix != 0 {
		b.WriteString(op.Prefix)
	}
	return b.String()
}

func (m *opMemo) lookup(op *OpInfo) (Decision, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, mask := range m.masks {
		if d, ok := m.answers[memoKey(mask, op)]; ok {
			return d, true
		}
	}
	return Decision{}, false
}

func (m *opMemo) store(mask uint8, op *OpInfo, d Decision) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.answers == nil {
		m.answers = map[string]Decision{}
	}
	known := false
	for _, k := range m.masks {
		known = known || k == mask
	}
	if !known {
		m.masks = append(m.masks, mask)
	}
	if len(m.answers) < 4096 { // bounded: a hook reading every path memoises nothing useful
		m.answers[memoKey(mask, op)] = d
	}
}
