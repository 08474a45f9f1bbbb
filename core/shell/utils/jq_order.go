package utils

import (
	"errors"
	"reflect"
	"sort"
	"strings"

	"github.com/itchyny/gojq"

	"gatehouse/internal/lazy"
)

// jq keeps an object's keys in insertion order; gojq holds objects as Go
// maps, which forget it, and sorts keys wherever it iterates. These pieces
// give gojq jq's order back:
//
//   - jqKeyOrders remembers the key order of every object read from input
//     and of every object the filter spells out ({name: …, version: …}).
//     An object that reaches the output unchanged prints in its own order;
//     one the filter derived (.a = 1, del(.b), map_values(f), with_entries)
//     takes the order of the known object whose keys it shares most, with
//     new keys after them, as jq appends them.
//   - jqOrderedQuery rewrites the filter so that .[] over an object, and
//     the builtins that iterate objects (keys_unsorted, to_entries,
//     with_entries, map, add), visit keys in that order. The rewrite stays
//     a valid path expression, so assignments and del are unchanged.

// jqKeyOrders remembers key orders. The table keeps the recorded maps
// alive, so an address is never reused while it is in the table.
type jqKeyOrders struct {
	byMap     map[uintptr]jqOrderedObject
	permanent map[uintptr]jqOrderedObject // $ARGS and --argjson values
	// shapes holds each distinct key order seen, by its sorted key set;
	// recent lists the latest distinct orders, newest last, for objects
	// whose key set matches none exactly.
	shapes map[string]*jqShape
	recent []*jqShape
}

type jqOrderedObject struct {
	obj  map[string]any
	keys []string
}

// jqShape is one key order.
type jqShape struct {
	keys []string
	set  map[string]int // key -> position
}

const (
	jqMaxShapes = 4096 // distinct key sets remembered
	jqMaxRecent = 64   // orders scored for a partial match
)

func newJqKeyOrders() *jqKeyOrders {
	return &jqKeyOrders{
		byMap:     map[uintptr]jqOrderedObject{},
		permanent: map[uintptr]jqOrderedObject{},
		shapes:    map[string]*jqShape{},
	}
}

// record remembers obj's key order, by identity and as a shape.
func (o *jqKeyOrders) record(obj map[string]any, keys []string) {
	o.byMap[reflect.ValueOf(obj).Pointer()] = jqOrderedObject{obj, keys}
	o.learn(keys)
}

// learn remembers a key order as a shape (filter object constructions
// call it directly).
func (o *jqKeyOrders) learn(keys []string) {
	if len(keys) < 2 {
		return
	}
	// Arrays of records repeat one order: the latest shape answers most
	// calls without building a signature.
	if n := len(o.recent); n > 0 && sameStrings(o.recent[n-1].keys, keys) {
		return
	}
	sig := jqKeySignature(keys)
	if sh, ok := o.shapes[sig]; ok && sameStrings(sh.keys, keys) {
		return
	}
	if len(o.shapes) >= jqMaxShapes {
		return
	}
	sh := &jqShape{keys: keys, set: make(map[string]int, len(keys))}
	for i, k := range keys {
		sh.set[k] = i
	}
	o.shapes[sig] = sh
	o.recent = append(o.recent, sh)
	if len(o.recent) > jqMaxRecent {
		o.recent = o.recent[1:]
	}
}

// keep makes the orders recorded so far survive reset.
func (o *jqKeyOrders) keep() {
	for k, v := range o.byMap {
		o.permanent[k] = v
	}
}

// reset forgets the objects of finished inputs, so a long stream does
// not keep every input alive; their shapes stay.
func (o *jqKeyOrders) reset() {
	if len(o.byMap) == len(o.permanent) {
		return
	}
	o.byMap = make(map[uintptr]jqOrderedObject, len(o.permanent))
	for k, v := range o.permanent {
		o.byMap[k] = v
	}
}

// keysOf returns obj's keys in jq's order: its own when it was read or
// spelled out, else the order of the known object it shares most keys
// with followed by the rest sorted, or sorted when asked (-S).
func (o *jqKeyOrders) keysOf(obj map[string]any, sorted bool) []string {
	if o != nil && !sorted {
		if rec, ok := o.byMap[reflect.ValueOf(obj).Pointer()]; ok && len(rec.keys) == len(obj) {
			return rec.keys
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if o == nil || sorted || len(keys) < 2 {
		return keys
	}
	if sh, ok := o.shapes[strings.Join(keys, "\x00")]; ok {
		return sh.keys
	}
	best, bestScore := (*jqShape)(nil), 0
	for i := len(o.recent) - 1; i >= 0; i-- {
		sh := o.recent[i]
		score := 0
		for _, k := range keys {
			if _, ok := sh.set[k]; ok {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = sh, score
		}
	}
	if best == nil {
		return keys
	}
	ordered := make([]string, 0, len(keys))
	for _, k := range best.keys {
		if _, ok := obj[k]; ok {
			ordered = append(ordered, k)
		}
	}
	for _, k := range keys {
		if _, ok := best.set[k]; !ok {
			ordered = append(ordered, k)
		}
	}
	return ordered
}

// jqKeySignature is a key set's identity: its keys sorted.
func jqKeySignature(keys []string) string {
	sorted := append([]string(nil), keys...)
	sort.Strings(sorted)
	return strings.Join(sorted, "\x00")
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// jqOrderedKeysFunc is the name of the function that lists an object's
// keys in jq's order (arrays: their indexes).
const jqOrderedKeysFunc = "_gatehouse_keys"

// jqMergeFunc is the name of the function that adds two objects as jq
// does: the left one's keys in their order, then the right one's new keys.
const jqMergeFunc = "_gatehouse_merge"

// jqMergeObjects is l + r for two objects, its key order recorded.
func jqMergeObjects(l, r any, orders *jqKeyOrders) any {
	lo, ok1 := l.(map[string]any)
	ro, ok2 := r.(map[string]any)
	if !ok1 || !ok2 {
		return errors.New("object merge of a non-object")
	}
	out := make(map[string]any, len(lo)+len(ro))
	keys := make([]string, 0, len(lo)+len(ro))
	for _, k := range orders.keysOf(lo, false) {
		out[k] = lo[k]
		keys = append(keys, k)
	}
	for _, k := range orders.keysOf(ro, false) {
		if _, ok := out[k]; !ok {
			keys = append(keys, k)
		}
		out[k] = ro[k]
	}
	orders.record(out, keys)
	return out
}

// jqPrelude redefines the builtins that iterate objects over the ordered
// keys; the user's own definitions still shadow these.
const jqPrelude = `def keys_unsorted: ` + jqOrderedKeysFunc + `;
def to_entries: [keys_unsorted[] as $k | {key: $k, value: .[$k]}];
def with_entries(f): to_entries | map(f) | from_entries;
def map(f): [.[] | f];
def add: reduce .[] as $x (null; if type == "object" and ($x | type) == "object" then ` + jqMergeFunc + `($x) else . + $x end);
def recurse: recurse(.[]?);
def recurse(f): def r: ., (f | r); r;
def recurse(f; cond): def r: ., (f | select(cond) | r); r;
def paths: path(..) | select(. != []);
def paths(f): path(.. | select(f)) | select(. != []);
def leaf_paths: paths(scalars);
def tostream: path(def r: (.[]? | r), .; r) as $p | getpath($p) | reduce path(.[]?) as $q ([$p, .]; [$p + $q]);
.`

// jqOrderedIter replaces each .[]: over an object it visits the ordered
// keys; over anything else it is the plain iteration (and its errors).
const jqOrderedIter = `if type == "object" then (` + jqOrderedKeysFunc + `[] as $__gatehouse_k | .[$__gatehouse_k]) else .[] end`

// jqOrderedQuery returns the filter with the prelude's definitions and
// every .[] rewritten, and teaches orders the key orders of the objects
// the filter spells out.
func jqOrderedQuery(query *gojq.Query, orders *jqKeyOrders) (*gojq.Query, error) {
	prelude, err := gojq.Parse(jqPrelude)
	if err != nil {
		return nil, err
	}
	jqWalkQuery(reflect.ValueOf(query), orders)
	jqWalkQuery(reflect.ValueOf(prelude), nil)
	query.FuncDefs = append(prelude.FuncDefs, query.FuncDefs...)
	return query, nil
}

var (
	jqTermType   = reflect.TypeOf((*gojq.Term)(nil))
	jqObjectType = reflect.TypeOf((*gojq.Object)(nil))
)

// jqWalkQuery visits every node of a parsed filter, depth first, so each
// term's iterations are rewritten after its parts.
func jqWalkQuery(v reflect.Value, orders *jqKeyOrders) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == jqObjectType && orders != nil {
			orders.learn(jqObjectKeys(v.Interface().(*gojq.Object)))
		}
		jqWalkQuery(v.Elem(), orders)
		if v.Type() == jqTermType {
			jqRewriteIter(v.Interface().(*gojq.Term))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				jqWalkQuery(v.Field(i), orders)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			jqWalkQuery(v.Index(i), orders)
		}
	}
}

// jqObjectKeys lists the literal keys of an object construction in the
// order written; a computed key ends the list.
func jqObjectKeys(obj *gojq.Object) []string {
	var keys []string
	for _, kv := range obj.KeyVals {
		switch {
		case kv.Key != "":
			keys = append(keys, strings.TrimPrefix(kv.Key, "$"))
		case kv.KeyString != nil && len(kv.KeyString.Queries) == 0:
			keys = append(keys, kv.KeyString.Str)
		default:
			return keys
		}
	}
	return keys
}

// jqRewriteIter turns term[]rest into (term | ORDERED-ITER)rest, for every
// iteration suffix in turn.
func jqRewriteIter(t *gojq.Term) {
	for {
		i := -1
		for j, s := range t.SuffixList {
			if s.Iter {
				i = j
				break
			}
		}
		if i < 0 {
			return
		}
		iter, err := gojq.Parse(jqOrderedIter)
		if err != nil {
			return
		}
		prefix := *t
		prefix.SuffixList = t.SuffixList[:i:i]
		rest := t.SuffixList[i+1:]
		*t = gojq.Term{
			Type:       gojq.TermTypeQuery,
			Query:      &gojq.Query{Left: &gojq.Query{Term: &prefix}, Op: gojq.OpPipe, Right: iter},
			SuffixList: rest,
		}
	}
}

// jqOrderedKeys is keys_unsorted: an object's keys in jq's order, an
// array's indexes, and jq's error for anything else.
func jqOrderedKeys(v any, orders *jqKeyOrders) any {
	switch x := v.(type) {
	case map[string]any:
		keys := orders.keysOf(x, false)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = k
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = i
		}
		return out
	}
	return jqNoKeysError(v)
}

// jqKeysCode is gojq's own keys, run for its error's preview of a value.
var jqKeysCode = lazy.Value[*gojq.Code]{New: func() *gojq.Code {
	q, _ := gojq.Parse("keys")
	code, _ := gojq.Compile(q)
	return code
}}

// jqNoKeysError is jq's "string ("abc") has no keys", from gojq's "keys
// cannot be applied to: string ("abc")".
func jqNoKeysError(v any) error {
	got, _ := jqKeysCode.Get().Run(v).Next()
	err, ok := got.(error)
	if !ok {
		return errors.New("has no keys")
	}
	_, preview, _ := strings.Cut(err.Error(), ": ")
	return errors.New(preview + " has no keys")
}
