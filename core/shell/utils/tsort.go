package utils

import (
	"slices"
	"sort"
	"strings"
)

const tsortHelp = `Usage: tsort [OPTION] [FILE]
Write totally ordered list consistent with the partial ordering in FILE.

With no FILE, or when FILE is -, read standard input.

      --help        display this help and exit
      --version     output version information and exit
`

// tsortUtility makes tsort (see builtins).
func tsortUtility(string) *Utility {
	return &Utility{
		Name:        "tsort",
		Run:         runTsort,
		Operands:    plainOperands(nil, parseMode{}, Read),
		OperandExit: 1,
		Voice:       quotedVoice("tsort"),
		Help:        tsortHelp,
	}
}

// tsortItem is one token: how many predecessors are left, its
// successors (the latest relation first, as tsort keeps them) and the
// queue link tsort's Knuth algorithm T uses.
type tsortItem struct {
	str   string
	done  bool
	count int
	top   []*tsortItem // successors, newest first
	qlink *tsortItem
}

func runTsort(e *Env) (int, error) {
	t, args, status, done := begin(e, spec{name: "tsort", usageExit: 1, help: tsortHelp})
	if done {
		return status, nil
	}
	files := args.operandStrings(e.Args)
	if len(files) > 1 {
		return t.usage("extra operand " + quoteAlways(files[1])), nil
	}
	name := "-"
	if len(files) == 1 {
		name = files[0]
	}
	in, closeIn, err := openOperand(t, name)
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": " + errText(err))
		return t.end(1)
	}
	data, err := readAllCtx(t, in)
	closeIn()
	if err != nil {
		t.warn(quoteIfNeeded(name) + ": read error: " + errText(err))
		return t.end(1)
	}
	tokens := strings.Fields(string(data))
	if len(tokens)%2 != 0 {
		t.warn(quoteIfNeeded(name) + ": input contains an odd number of tokens")
		return t.end(1)
	}
	if t.env.Grow(int64(len(tokens))*96) != nil {
		return t.end(1)
	}
	items := map[string]*tsortItem{}
	get := func(s string) *tsortItem {
		it := items[s]
		if it == nil {
			it = &tsortItem{str: s}
			items[s] = it
		}
		return it
	}
	for i := 0; i < len(tokens); i += 2 {
		j, k := get(tokens[i]), get(tokens[i+1])
		if j != k {
			k.count++
			j.top = append(j.top, k) // reversed below: tsort keeps the newest first
		}
		if i%8192 == 0 && t.stopped() {
			return t.end(1)
		}
	}
	sorted := make([]*tsortItem, 0, len(items))
	for _, it := range items {
		slices.Reverse(it.top)
		sorted = append(sorted, it)
	}
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].str < sorted[b].str })
	if !tsortRun(t, sorted, name) {
		return t.end(1)
	}
	return t.end(0)
}

// tsortRun prints the order; on a loop it names the loop's items, breaks
// one relation and goes on, as tsort does. false means a loop was found.
func tsortRun(t *tool, sorted []*tsortItem, name string) bool {
	left, ok := len(sorted), true
	for left > 0 && !t.stopped() {
		var head, tail *tsortItem
		for _, it := range sorted {
			if !it.done && it.count == 0 {
				if head == nil {
					head = it
				} else {
					tail.qlink = it
				}
				tail = it
			}
		}
		for head != nil {
			t.writeString(head.str + "\n")
			head.done = true
			left--
			for _, s := range head.top {
				s.count--
				if s.count == 0 {
					tail.qlink, tail = s, s
				}
			}
			next := head.qlink
			head.qlink = nil
			head = next
		}
		if left > 0 {
			t.warn(quoteIfNeeded(name) + ": input contains a loop:")
			ok = false
			var loop *tsortItem
			for {
				tsortDetectLoop(t, sorted, &loop)
				if loop == nil || t.stopped() {
					break
				}
			}
		}
	}
	return ok
}

// tsortDetectLoop is one walk of tsort's detect_loop over the items in
// order: loop, kept from walk to walk, is the path being traced through
// the qlinks; when it closes, the loop is printed, one of its relations
// removed and loop emptied.
func tsortDetectLoop(t *tool, sorted []*tsortItem, loop **tsortItem) {
	for _, k := range sorted {
		if k.done || k.count == 0 {
			continue
		}
		if *loop == nil {
			*loop = k
			continue
		}
		for i, s := range k.top {
			if s != *loop {
				continue
			}
			if k.qlink == nil {
				k.qlink, *loop = *loop, k
				break
			}
			// A loop: print the path back to k, and remove k's relation.
			for *loop != nil {
				next := (*loop).qlink
				t.warn((*loop).str)
				if *loop == k {
					s.count--
					k.top = append(k.top[:i:i], k.top[i+1:]...)
					break
				}
				(*loop).qlink = nil
				*loop = next
			}
			for *loop != nil {
				next := (*loop).qlink
				(*loop).qlink = nil
				*loop = next
			}
			return
		}
	}
}
