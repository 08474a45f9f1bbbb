package awk

import (
	"sort"
	"strconv"
	"strings"
)

// array is an awk array: a Go map for lookups, plus a shadow of the
// structure gawk would have built from the same inserts and deletes, so
// that `for (k in a)` visits subscripts in gawk's order. Only inserts and
// deletes touch the shadow; lookups are one map access.
type array struct {
	m   map[string]*value
	ord order
}

func newArray() *array { return &array{m: map[string]*value{}} }

func (a *array) get(k string) (*value, bool) {
	v, ok := a.m[k]
	return v, ok
}

// set stores a new element (k must not be present).
func (a *array) set(k string, v *value) {
	a.m[k] = v
	a.ord.insert(k)
}

func (a *array) remove(k string) bool {
	if _, ok := a.m[k]; !ok {
		return false
	}
	delete(a.m, k)
	a.ord.remove(k)
	return true
}

func (a *array) clear() {
	clear(a.m)
	a.ord = order{}
}

func (a *array) len() int { return len(a.m) }

// elemCost is what the line's budget is charged for one array element
// beyond its subscript's and value's bytes: the map's entry, the value and
// the shadow's node (about 95 bytes measured for integer subscripts, 134
// for strings).
const elemCost = 128

// elemSize is what one element is charged.
func elemSize(k string, v *value) int { return len(k) + len(v.s) + elemCost }

// put stores v under k in a, charging the line's budget (G-12.3) for a
// new element or for the change in an old one's string.
func (in *interp) put(a *array, k string, v value) {
	if p, ok := a.m[k]; ok {
		in.grow(len(v.s) - len(p.s))
		*p = v
		return
	}
	in.grow(len(k) + len(v.s) + elemCost)
	nv := v
	a.set(k, &nv)
}

// element returns a's element k, creating it empty (and charging for it)
// when it is not there.
func (in *interp) element(a *array, k string) *value {
	if p, ok := a.m[k]; ok {
		return p
	}
	in.grow(len(k) + elemCost)
	p := &value{}
	a.set(k, p)
	return p
}

// clearArray empties a, giving back what its elements were charged.
func (in *interp) clearArray(a *array) {
	n := 0
	for k, v := range a.m {
		n += elemSize(k, v)
	}
	in.release(n)
	a.clear()
}

// removeElem deletes a's element k, giving back what it was charged.
func (in *interp) removeElem(a *array, k string) {
	if v, ok := a.m[k]; ok {
		in.release(elemSize(k, v))
		a.remove(k)
	}
}

// keys lists the subscripts in gawk's for-in order.
func (a *array) keys() []string {
	out := make([]string, 0, len(a.m))
	return a.ord.list(a.m, out)
}

// The shadow follows gawk 5.2's array code: the first subscript picks the
// kind (a non-negative integer: cint; another integer: int; else str);
// cint lists its integers in ascending order after the subscripts it could
// not hold; str and int are hash tables of prime sizes listed bucket by
// bucket, each chain from its newest element.
type orderKind uint8

const (
	oNull orderKind = iota
	oStr
	oInt
	oCint
)

var tableSizes = []int{13, 127, 1021, 8191, 16381, 32749, 65497, 131101, 262147, 524309,
	1048583, 2097169, 4194319, 8388617, 16777259, 33554467, 67108879, 134217757}

const (
	chainMax  = 2    // STR_CHAIN_MAX and INT_CHAIN_MAX
	nhat      = 10   // cint's leaf exponent
	threshold = 2048 // cint's allowed capacity waste, 2^(nhat+1)
)

// order is gawk's table for one array (or for the subscripts a cint or
// int table hands to its companion table x).
type order struct {
	kind orderKind
	size int // elements, those in x included
	x    *order
	// str: chains hold keys oldest first (the head is the last).
	str [][]string
	// int: chains of two-slot buckets, the head bucket last.
	ints [][]intBucket
	// cint: elements per leaf (by the leaf's first index) and capacity.
	leaves   map[int64]int
	capacity int64
}

type intBucket struct {
	n     [2]int64
	count int
}

// intKey reports a subscript gawk stores as an integer: "0" or
// -?[1-9][0-9]* within 32 bits.
func intKey(s string) (int64, bool) {
	if s == "" || len(s) > 11 {
		return 0, false
	}
	if s == "0" {
		return 0, true
	}
	i := 0
	if s[0] == '-' {
		i = 1
	}
	if i >= len(s) || s[i] < '1' || s[i] > '9' {
		return 0, false
	}
	for j := i; j < len(s); j++ {
		if s[j] < '0' || s[j] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > 1<<31-1 || n < -1<<31 {
		return 0, false
	}
	return n, true
}

func (o *order) insert(k string) {
	if o.kind == oNull {
		n, isInt := intKey(k)
		switch {
		case isInt && n >= 0:
			o.kind = oCint
		case isInt:
			o.kind = oInt
		default:
			o.kind = oStr
		}
	}
	switch o.kind {
	case oStr:
		o.strInsert(k)
	case oInt:
		o.intInsert(k)
	default:
		o.cintInsert(k)
	}
}

// xInsert hands a subscript to the companion table.
func (o *order) xInsert(k string) {
	o.size++
	if o.x == nil {
		// gawk's companion is an int table for integers, else str.
		o.x = &order{kind: oStr}
		if _, ok := intKey(k); ok {
			o.x.kind = oInt
		}
	}
	o.x.insert(k)
}

func (o *order) xSize() int {
	if o.x == nil {
		return 0
	}
	return o.x.size
}

func nextTableSize(cur int) int {
	for _, s := range tableSizes {
		if cur < s {
			return s
		}
	}
	return cur
}

// awkHash is gawk's string hash (sdbm, kept to 32 bits).
func awkHash(s string) uint32 {
	var h uint64
	for i := 0; i < len(s); i++ {
		htmp := h << 6
		h = uint64(s[i]) + htmp + (htmp << 10) - h
		h &= 0xFFFFFFFF
	}
	return uint32(h)
}

func (o *order) strInsert(k string) {
	if o.str == nil {
		o.str = make([][]string, tableSizes[0])
	}
	code := awkHash(k)
	o.size++
	if o.size/len(o.str) > chainMax {
		o.growStr()
	}
	h := int(code % uint32(len(o.str)))
	o.str[h] = append(o.str[h], k)
}

func (o *order) growStr() {
	n := nextTableSize(len(o.str))
	if n == len(o.str) {
		return
	}
	old := o.str
	o.str = make([][]string, n)
	for _, chain := range old {
		for i := len(chain) - 1; i >= 0; i-- {
			h := awkHash(chain[i]) % uint32(n)
			o.str[h] = append(o.str[h], chain[i])
		}
	}
}

// intHash is the final mix of Paul Hsieh's SuperFastHash, as gawk uses.
func intHash(n int64, size int) int {
	k := uint32(n)
	k ^= k << 3
	k += k >> 5
	k ^= k << 4
	k += k >> 17
	k ^= k << 25
	k += k >> 6
	return int(k % uint32(size))
}

func (o *order) intInsert(k string) {
	n, ok := intKey(k)
	if !ok {
		o.xInsert(k)
		return
	}
	if o.ints == nil {
		o.ints = make([][]intBucket, tableSizes[0])
	}
	o.size++
	if (o.size-o.xSize())/len(o.ints) > chainMax {
		o.growInt()
	}
	o.intPut(n)
}

func (o *order) intPut(n int64) {
	h := intHash(n, len(o.ints))
	chain := o.ints[h]
	if len(chain) == 0 || chain[len(chain)-1].count == 2 {
		chain = append(chain, intBucket{})
	}
	b := &chain[len(chain)-1]
	b.n[b.count] = n
	b.count++
	o.ints[h] = chain
}

func (o *order) growInt() {
	size := nextTableSize(len(o.ints))
	if size == len(o.ints) {
		return
	}
	old := o.ints
	o.ints = make([][]intBucket, size)
	for _, chain := range old {
		for i := len(chain) - 1; i >= 0; i-- {
			for j := 0; j < chain[i].count; j++ {
				o.intPut(chain[i].n[j])
			}
		}
	}
}

// cintHash is the top-level slot of a non-negative integer.
func cintHash(k int64) int {
	if k == 0 {
		return nhat
	}
	r := 63
	for k>>uint(r) == 0 {
		r--
	}
	if r < nhat {
		return nhat
	}
	return r + 1
}

// cintLeaf returns the first index and size of the leaf holding k.
func cintLeaf(k int64) (base, size int64) {
	m := cintHash(k) - 1
	if m < nhat {
		return treeLeaf(k, nhat, 0)
	}
	return treeLeaf(k, m, 1<<m)
}

func treeLeaf(k int64, m int, base int64) (int64, int64) {
	n := (m + 1) / 2
	size := int64(1) << n
	i := (k - base) / size
	base += size * i
	if n > nhat {
		return treeLeaf(k, n, base)
	}
	return base, size
}

func (o *order) cintInsert(k string) {
	n, ok := intKey(k)
	if !ok || n < 0 {
		o.xInsert(k)
		return
	}
	m := cintHash(n) - 1
	li := max(m, nhat)
	for li >= nhat {
		li = (li + 1) / 2
	}
	if o.capacity+int64(1)<<li-int64(o.size-o.xSize()) > threshold {
		o.xInsert(k)
		return
	}
	if o.leaves == nil {
		o.leaves = map[int64]int{}
	}
	o.size++
	base, size := cintLeaf(n)
	if o.leaves[base] == 0 {
		o.capacity += size
	}
	o.leaves[base]++
}

func (o *order) remove(k string) {
	switch o.kind {
	case oStr:
		o.strRemove(k)
	case oInt:
		o.intRemove(k)
	case oCint:
		o.cintRemove(k)
	}
}

func (o *order) strRemove(k string) {
	h := awkHash(k) % uint32(len(o.str))
	chain := o.str[h]
	for i, s := range chain {
		if s == k {
			o.str[h] = append(chain[:i:i], chain[i+1:]...)
			o.size--
			if o.size == 0 {
				*o = order{}
			}
			return
		}
	}
}

// xRemove takes a subscript out of the companion table.
func (o *order) xRemove(k string) {
	if o.x == nil {
		return
	}
	o.x.remove(k)
	if o.x.size == 0 {
		o.x = nil
	}
	o.size--
}

// afterRemove empties or promotes the table once its own part is gone.
func (o *order) afterRemove() {
	o.size--
	switch {
	case o.x == nil && o.size == 0:
		*o = order{}
	case o.x != nil && o.size == o.x.size:
		*o = *o.x
	}
}

func (o *order) intRemove(k string) {
	n, ok := intKey(k)
	if !ok || o.ints == nil || !o.intDelete(n) {
		o.xRemove(k)
		return
	}
	o.afterRemove()
}

// intDelete removes n as gawk does: the head bucket fills the hole.
func (o *order) intDelete(n int64) bool {
	h := intHash(n, len(o.ints))
	chain := o.ints[h]
	for bi := len(chain) - 1; bi >= 0; bi-- {
		b := &chain[bi]
		for i := 0; i < b.count; i++ {
			if b.n[i] != n {
				continue
			}
			if i == 0 && b.count == 2 {
				b.n[0] = b.n[1]
			}
			b.count--
			head := len(chain) - 1
			switch {
			case b.count == 0:
				chain = append(chain[:bi:bi], chain[bi+1:]...)
			case bi != head:
				hb := &chain[head]
				hb.count--
				b.n[1] = hb.n[hb.count]
				b.count++
				if hb.count == 0 {
					chain = chain[:head]
				}
			}
			o.ints[h] = chain
			return true
		}
	}
	return false
}

func (o *order) cintRemove(k string) {
	n, ok := intKey(k)
	if !ok || n < 0 || o.x != nil && o.x.contains(k) {
		o.xRemove(k)
		return
	}
	base, size := cintLeaf(n)
	o.leaves[base]--
	if o.leaves[base] == 0 {
		delete(o.leaves, base)
		o.capacity -= size
	}
	o.afterRemove()
}

// contains reports whether a str or int table (or its companion) holds k.
func (o *order) contains(k string) bool {
	switch o.kind {
	case oStr:
		for _, s := range o.str[awkHash(k)%uint32(len(o.str))] {
			if s == k {
				return true
			}
		}
		return false
	case oInt:
		if n, ok := intKey(k); ok && o.ints != nil {
			for _, b := range o.ints[intHash(n, len(o.ints))] {
				for i := 0; i < b.count; i++ {
					if b.n[i] == n {
						return true
					}
				}
			}
			return false
		}
	}
	return o.x != nil && o.x.contains(k)
}

// list appends the subscripts in gawk's order. m holds every subscript
// of the array (cint's integers are read from it).
func (o *order) list(m map[string]*value, out []string) []string {
	switch o.kind {
	case oStr:
		for _, chain := range o.str {
			for i := len(chain) - 1; i >= 0; i-- {
				out = append(out, chain[i])
			}
		}
		return out
	case oInt:
		if o.x != nil {
			out = o.x.list(m, out)
		}
		for _, chain := range o.ints {
			for i := len(chain) - 1; i >= 0; i-- {
				for j := 0; j < chain[i].count; j++ {
					out = append(out, strconv.FormatInt(chain[i].n[j], 10))
				}
			}
		}
		return out
	case oCint:
		if o.x != nil {
			out = o.x.list(m, out)
		}
		var nums []int64
		for k := range m {
			if n, ok := intKey(k); ok && n >= 0 && (o.x == nil || !o.x.contains(k)) {
				nums = append(nums, n)
			}
		}
		sort.Slice(nums, func(i, j int) bool { return nums[i] < nums[j] })
		for _, n := range nums {
			out = append(out, strconv.FormatInt(n, 10))
		}
	}
	return out
}

// sortKeys orders a for-in snapshot as gawk's PROCINFO["sorted_in"]
// asks: "@ind_str_asc", "@ind_num_desc", "@val_num_asc", "@val_type_asc",
// "@val_str_desc" and so on; ties fall back to the index as a string, and
// a descending order is the ascending one reversed. "@unsorted" and
// anything else (a user function's name) keep gawk's table order.
func (in *interp) sortKeys(arr *array, keys []string, how string) {
	var less func(a, b string) int
	switch how {
	case "@ind_str_asc", "@ind_str_desc":
		less = func(a, b string) int { return strings.Compare(a, b) }
	case "@ind_num_asc", "@ind_num_desc":
		less = func(a, b string) int { return cmpNum(strToNum(a), strToNum(b), a, b) }
	case "@val_str_asc", "@val_str_desc":
		less = func(a, b string) int {
			if c := strings.Compare(in.toStr(*arr.m[a]), in.toStr(*arr.m[b])); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		}
	case "@val_num_asc", "@val_num_desc":
		less = func(a, b string) int { return cmpNum(arr.m[a].toNum(), arr.m[b].toNum(), a, b) }
	case "@val_type_asc", "@val_type_desc":
		less = func(a, b string) int {
			x, y := *arr.m[a], *arr.m[b]
			xn, xok := numericView(x)
			yn, yok := numericView(y)
			switch {
			case xok && yok:
				return cmpNum(xn, yn, a, b)
			case xok:
				return -1
			case yok:
				return 1
			}
			if c := strings.Compare(in.toStr(x), in.toStr(y)); c != 0 {
				return c
			}
			return strings.Compare(a, b)
		}
	default:
		return
	}
	sort.SliceStable(keys, func(i, j int) bool { return less(keys[i], keys[j]) < 0 })
	if strings.HasSuffix(how, "_desc") {
		for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
			keys[i], keys[j] = keys[j], keys[i]
		}
	}
}

// cmpNum orders two numbers, then their indices as strings.
func cmpNum(x, y float64, a, b string) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return strings.Compare(a, b)
}
