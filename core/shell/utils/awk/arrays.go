package awk

import (
	"sort"
	"strconv"
)

// orderedKeys lists an array's subscripts for `for (k in a)`. awk leaves
// the order unspecified; integer subscripts come in ascending order as in
// gawk, other subscripts after them in byte order.
func orderedKeys(arr map[string]*value) []string {
	keys := make([]string, 0, len(arr))
	for k := range arr {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, aok := intKey(keys[i])
		b, bok := intKey(keys[j])
		switch {
		case aok && bok:
			return a < b
		case aok:
			return true
		case bok:
			return false
		}
		return keys[i] < keys[j]
	})
	return keys
}

// intKey reports a subscript that is an integer in canonical form.
func intKey(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || strconv.FormatInt(n, 10) != s {
		return 0, false
	}
	return n, true
}
