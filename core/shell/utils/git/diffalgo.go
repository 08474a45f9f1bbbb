package git

import "bytes"

// opKind is one line's fate in a line diff.
type opKind byte

const (
	opEqual opKind = ' '
	opDel   opKind = '-'
	opAdd   opKind = '+'
)

// edit is a line of a diff: an old line kept or deleted, or a new line.
type edit struct {
	op   opKind
	a, b int // line index in the old / new text (-1 where it has none)
}

// splitLines splits text into lines, each keeping its "\n" (the last may
// lack one).
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// isBinary is git's test: a NUL in the first 8000 bytes.
func isBinary(data []byte) bool {
	if len(data) > 8000 {
		data = data[:8000]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// diffLines is Myers' shortest edit script between two line lists, after
// trimming their common head and tail.
func diffLines(a, b [][]byte) []edit {
	pre := 0
	for pre < len(a) && pre < len(b) && bytes.Equal(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && bytes.Equal(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	var out []edit
	for i := 0; i < pre; i++ {
		out = append(out, edit{opEqual, i, i})
	}
	out = append(out, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := 0; i < suf; i++ {
		out = append(out, edit{opEqual, len(a) - suf + i, len(b) - suf + i})
	}
	return out
}

// myers diffs a and b whose first lines are numbered offA and offB.
func myers(a, b [][]byte, offA, offB int) []edit {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return replaceAll(n, m, offA, offB)
	}
	max := n + m
	v := make([]int, 2*max+2)
	var trace [][]int
	for d := 0; d <= max; d++ {
		if d > maxEditDistance {
			return replaceAll(n, m, offA, offB)
		}
		snap := make([]int, 2*d+1)
		copy(snap, v[max-d:max+d+1])
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[max+k-1] < v[max+k+1]) {
				x = v[max+k+1]
			} else {
				x = v[max+k-1] + 1
			}
			y := x - k
			for x < n && y < m && bytes.Equal(a[x], b[y]) {
				x++
				y++
			}
			v[max+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, max, d, offA, offB)
			}
		}
	}
	return nil
}

// maxEditDistance bounds Myers' search: its trace grows with the square of
// the distance, so two texts further apart than this are shown as one
// replacement (still a correct diff, not a minimal one).
const maxEditDistance = 2000

// replaceAll is the diff that deletes every old line and adds every new one.
func replaceAll(n, m, offA, offB int) []edit {
	out := make([]edit, 0, n+m)
	for i := 0; i < n; i++ {
		out = append(out, edit{opDel, offA + i, -1})
	}
	for j := 0; j < m; j++ {
		out = append(out, edit{opAdd, -1, offB + j})
	}
	return out
}

func backtrack(trace [][]int, a, b [][]byte, max, d, offA, offB int) []edit {
	x, y := len(a), len(b)
	var rev []edit
	for ; d > 0; d-- {
		snap := trace[d]
		at := func(k int) int { return snap[k+d] }
		k := x - y
		var prevK int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x--
			y--
			rev = append(rev, edit{opEqual, offA + x, offB + y})
		}
		if x == prevX {
			y--
			rev = append(rev, edit{opAdd, -1, offB + y})
		} else {
			x--
			rev = append(rev, edit{opDel, offA + x, -1})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, edit{opEqual, offA + x, offB + y})
	}
	out := make([]edit, len(rev))
	for i := range rev {
		out[i] = rev[len(rev)-1-i]
	}
	return out
}

// lineCounts is the number of added and deleted lines between two texts.
func lineCounts(old, new []byte) (added, deleted int) {
	for _, e := range diffLines(splitLines(old), splitLines(new)) {
		switch e.op {
		case opAdd:
			added++
		case opDel:
			deleted++
		}
	}
	return added, deleted
}
