// Added to this copy by gatehouse (see PATCHES.md); under the same licence.

package expand

import "slices"

// Associative arrays list their keys in the order of bash's hash table:
// by bucket (a 32-bit FNV-1 hash of the key, masked by the table's size),
// and within a bucket the newest key first. The table starts with 1024
// buckets and grows four times whenever an insertion finds it holding twice
// as many keys as buckets; growing moves the keys bucket by bucket, each
// to the head of its new bucket. [Variable.Keys] keeps the keys in the
// order they were inserted, from which that order is rebuilt.

const (
	assocBuckets    = 1024
	assocGrowFactor = 2
	assocGrowBy     = 4
)

// assocHash is bash's hash_string: FNV-1, 32 bits.
func assocHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h *= 16777619
		h ^= uint32(s[i])
	}
	return h
}

// AssocKeys returns the keys of an associative array in the order bash
// lists them, as "${!a[@]}" and declare -p do.
func AssocKeys(vr Variable) []string {
	inserted := vr.Keys
	if len(inserted) != len(vr.Map) {
		// Built without an insertion order: take the keys sorted.
		inserted = make([]string, 0, len(vr.Map))
		for k := range vr.Map {
			inserted = append(inserted, k)
		}
		slices.Sort(inserted)
	}
	// Each bucket holds its keys oldest first; they are read newest first.
	buckets := make([][]string, assocBuckets)
	mask := uint32(assocBuckets - 1)
	for n, key := range inserted {
		if n >= len(buckets)*assocGrowFactor {
			grown := make([][]string, len(buckets)*assocGrowBy)
			gmask := uint32(len(grown) - 1)
			for _, b := range buckets {
				for i := len(b) - 1; i >= 0; i-- {
					j := assocHash(b[i]) & gmask
					grown[j] = append(grown[j], b[i])
				}
			}
			buckets, mask = grown, gmask
		}
		j := assocHash(key) & mask
		buckets[j] = append(buckets[j], key)
	}
	keys := make([]string, 0, len(inserted))
	for _, b := range buckets {
		for i := len(b) - 1; i >= 0; i-- {
			keys = append(keys, b[i])
		}
	}
	return keys
}

// AssocValues returns the values of an associative array in the order of
// [AssocKeys].
func AssocValues(vr Variable) []string {
	keys := AssocKeys(vr)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = vr.Map[k]
	}
	return vals
}

// AssocSet returns vr as an associative array with key set to val, on
// copies of its map and keys (a variable's value may be shared).
func AssocSet(vr Variable, key, val string) Variable {
	m := make(map[string]string, len(vr.Map)+1)
	for k, v := range vr.Map {
		m[k] = v
	}
	keys := AssocOrder(vr)
	if _, ok := m[key]; !ok {
		keys = append(slices.Clip(keys), key)
	}
	m[key] = val
	vr.Kind, vr.Map, vr.Keys, vr.Set = Associative, m, keys, true
	return vr
}

// AssocDelete returns vr without key, on copies of its map and keys.
func AssocDelete(vr Variable, key string) Variable {
	if _, ok := vr.Map[key]; !ok {
		return vr
	}
	m := make(map[string]string, len(vr.Map))
	for k, v := range vr.Map {
		if k != key {
			m[k] = v
		}
	}
	keys := AssocOrder(vr)
	i := slices.Index(keys, key)
	vr.Map, vr.Keys = m, slices.Delete(slices.Clone(keys), i, i+1)
	return vr
}

// NewAssoc builds an associative array's value from keys and values in
// the order they are assigned; a key given twice keeps its first place
// and its last value.
func NewAssoc(keys, vals []string) (map[string]string, []string) {
	m := make(map[string]string, len(keys))
	order := make([]string, 0, len(keys))
	for i, k := range keys {
		if _, ok := m[k]; !ok {
			order = append(order, k)
		}
		m[k] = vals[i]
	}
	return m, order
}

// AssocOrder returns the keys of an associative array in the order they
// were inserted, making one up (sorted) for a map built without it. The
// slice may be the variable's own: copy it before changing it.
func AssocOrder(vr Variable) []string {
	if len(vr.Keys) == len(vr.Map) {
		return vr.Keys
	}
	keys := make([]string, 0, len(vr.Map))
	for k := range vr.Map {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
