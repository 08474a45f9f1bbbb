package utils

import (
	"bufio"
	"io"
	"sort"
)

// bzip2Writer compresses to the bzip2 format (bzip2 1.0's streams): run
// length coding of runs of four or more, the Burrows-Wheeler transform of
// each block, move-to-front with RUNA/RUNB zero runs, and Huffman codes.
// It uses one code table (written twice, as the format wants at least
// two), so its output is larger than bzip2's by a few percent but any
// bzip2 reads it.
type bzip2Writer struct {
	w        *bufio.Writer
	bits     uint64
	nbits    uint
	max      int // the block's limit after run length coding
	block    []byte
	crc      uint32 // the block's, over the bytes before run length coding
	combined uint32
	last     int // the byte of the current run, -1 when none
	run      int
	grow     func(int64) error
	err      error
	table    *[256]uint32
	charged  int64 // the block's capacity, charged to the budget
}

// bzip2CRCTable is bzip2's CRC-32 (MSB first, polynomial 0x04c11db7).
func bzip2CRCTable() *[256]uint32 {
	t := new([256]uint32)
	for i := range t {
		c := uint32(i) << 24
		for range 8 {
			if c&0x80000000 != 0 {
				c = c<<1 ^ 0x04c11db7
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}

func newBzip2Writer(w io.Writer, level int, grow func(int64) error) *bzip2Writer {
	z := &bzip2Writer{w: bufio.NewWriter(w), max: level*100000 - 19, last: -1, crc: 0xffffffff, grow: grow, table: bzip2CRCTable()}
	z.w.WriteString("BZh")
	z.w.WriteByte(byte('0' + level))
	return z
}

func (z *bzip2Writer) putBits(n uint, v uint64) {
	z.bits = z.bits<<n | v&(1<<n-1)
	z.nbits += n
	for z.nbits >= 8 {
		z.nbits -= 8
		z.w.WriteByte(byte(z.bits >> z.nbits))
	}
}

func (z *bzip2Writer) Write(p []byte) (int, error) {
	crc := z.table
	for i, c := range p {
		if z.err != nil {
			return i, z.err
		}
		// A run is flushed before the block could overflow with it.
		if len(z.block) >= z.max-5 && (int(c) != z.last || z.run == 255) {
			z.flushRun()
			z.endBlock()
		}
		z.crc = z.crc<<8 ^ crc[byte(z.crc>>24)^c]
		if int(c) == z.last && z.run < 255 {
			z.run++
			continue
		}
		z.flushRun()
		z.last, z.run = int(c), 1
	}
	return len(p), z.err
}

// flushRun writes the pending run: up to four bytes as they are, a longer
// one as four bytes and a count.
func (z *bzip2Writer) flushRun() {
	if z.last < 0 {
		return
	}
	b := byte(z.last)
	for i := 0; i < min(z.run, 4); i++ {
		z.block = append(z.block, b)
	}
	if z.run >= 4 {
		z.block = append(z.block, byte(z.run-4))
	}
	z.last, z.run = -1, 0
	if c := int64(cap(z.block)); c > z.charged && z.grow != nil {
		// The block is held until it is full: charged as it grows.
		if err := z.grow(c - z.charged); err != nil && z.err == nil {
			z.err = err
		}
		z.charged = c
	}
}

// Close ends the last block and the stream.
func (z *bzip2Writer) Close() error {
	z.flushRun()
	if len(z.block) > 0 {
		z.endBlock()
	}
	z.putBits(24, 0x177245)
	z.putBits(24, 0x385090)
	z.putBits(32, uint64(z.combined))
	if z.nbits > 0 {
		z.putBits(8-z.nbits, 0)
	}
	if err := z.w.Flush(); err != nil && z.err == nil {
		z.err = err
	}
	return z.err
}

// endBlock writes the block collected so far.
func (z *bzip2Writer) endBlock() {
	n := len(z.block)
	held := int64(n) * 17
	if z.grow != nil {
		if err := z.grow(held); err != nil {
			z.err = err
			return
		}
		defer z.grow(-held)
	}
	blockCRC := ^z.crc
	z.combined = (z.combined<<1 | z.combined>>31) ^ blockCRC
	z.crc = 0xffffffff
	ptr, last := bzip2BWT(z.block)
	z.putBits(24, 0x314159)
	z.putBits(24, 0x265359)
	z.putBits(32, uint64(blockCRC))
	z.putBits(1, 0)
	z.putBits(24, uint64(ptr))
	var used [256]bool
	for _, c := range z.block {
		used[c] = true
	}
	z.block = z.block[:0]
	z.putSymbolMap(&used)
	syms, alpha := bzip2MTF(last, &used)
	z.putHuffman(syms, alpha)
}

func (z *bzip2Writer) putSymbolMap(used *[256]bool) {
	var groups uint64
	for g := range 16 {
		for i := range 16 {
			if used[g*16+i] {
				groups |= 1 << (15 - g)
				break
			}
		}
	}
	z.putBits(16, groups)
	for g := range 16 {
		if groups&(1<<(15-g)) == 0 {
			continue
		}
		var m uint64
		for i := range 16 {
			if used[g*16+i] {
				m |= 1 << (15 - i)
			}
		}
		z.putBits(16, m)
	}
}

// bzip2BWT sorts the block's rotations (prefix doubling with counting
// sorts) and returns the original's place among them and the last column.
func bzip2BWT(b []byte) (int, []byte) {
	n := len(b)
	sa, rank, tmp := make([]int32, n), make([]int32, n), make([]int32, n)
	cnt := make([]int32, max(n, 256)+1)
	for _, c := range b {
		cnt[int(c)+1]++
	}
	for i := 1; i <= 256; i++ {
		cnt[i] += cnt[i-1]
	}
	for i, c := range b {
		sa[cnt[c]] = int32(i)
		cnt[c]++
	}
	classes := int32(0)
	for i := range n {
		if i > 0 && b[sa[i]] != b[sa[i-1]] {
			classes++
		}
		rank[sa[i]] = classes
	}
	for k := 1; k < n && int(classes) < n-1; k <<= 1 {
		// Sorted by the second half: shift the current order back by k.
		for i := range n {
			tmp[i] = int32((int(sa[i]) - k + n) % n)
		}
		clear(cnt[:classes+2])
		for i := range n {
			cnt[rank[tmp[i]]+1]++
		}
		for i := int32(1); i <= classes+1; i++ {
			cnt[i] += cnt[i-1]
		}
		for _, s := range tmp {
			sa[cnt[rank[s]]] = s
			cnt[rank[s]]++
		}
		classes = 0
		tmp[sa[0]] = 0
		for i := 1; i < n; i++ {
			a, p := sa[i], sa[i-1]
			if rank[a] != rank[p] || rank[(int(a)+k)%n] != rank[(int(p)+k)%n] {
				classes++
			}
			tmp[a] = classes
		}
		rank, tmp = tmp, rank
	}
	last := make([]byte, n)
	ptr := 0
	for i, s := range sa {
		if s == 0 {
			ptr = i
		}
		last[i] = b[(int(s)+n-1)%n]
	}
	return ptr, last
}

// bzip2MTF turns the last column into symbols: move-to-front indexes,
// zero runs as RUNA (0) and RUNB (1), others shifted up by one, and the
// end of block; alpha is the alphabet's size.
func bzip2MTF(last []byte, used *[256]bool) ([]uint16, int) {
	var order []byte
	for c := range 256 {
		if used[c] {
			order = append(order, byte(c))
		}
	}
	alpha := len(order) + 2
	syms := make([]uint16, 0, len(last)/2+2)
	zeros := 0
	flush := func() {
		for zeros > 0 {
			zeros--
			syms = append(syms, uint16(zeros&1))
			zeros >>= 1
		}
	}
	for _, c := range last {
		j := 0
		for order[j] != c {
			j++
		}
		if j == 0 {
			zeros++
			continue
		}
		flush()
		copy(order[1:j+1], order[:j])
		order[0] = c
		syms = append(syms, uint16(j+1))
	}
	flush()
	return append(syms, uint16(alpha-1)), alpha
}

// putHuffman writes two copies of one code table, the selectors (all the
// first table) and the coded symbols.
func (z *bzip2Writer) putHuffman(syms []uint16, alpha int) {
	freq := make([]int, alpha)
	for _, s := range syms {
		freq[s]++
	}
	lens := bzip2CodeLengths(freq, 17)
	codes := make([]uint32, alpha)
	code := uint32(0)
	for l := 1; l <= 17; l++ {
		for s := range alpha {
			if lens[s] == l {
				codes[s] = code
				code++
			}
		}
		code <<= 1
	}
	selectors := (len(syms) + 49) / 50
	z.putBits(3, 2)
	z.putBits(15, uint64(selectors))
	for range selectors {
		z.putBits(1, 0)
	}
	for range 2 {
		cur := lens[0]
		z.putBits(5, uint64(cur))
		for s := range alpha {
			for cur < lens[s] {
				z.putBits(2, 2)
				cur++
			}
			for cur > lens[s] {
				z.putBits(2, 3)
				cur--
			}
			z.putBits(1, 0)
		}
	}
	for _, s := range syms {
		z.putBits(uint(lens[s]), uint64(codes[s]))
	}
}

// bzip2CodeLengths gives Huffman code lengths no longer than limit, every
// symbol having one; past the limit the counts are halved and the codes
// built again, as bzip2 does.
func bzip2CodeLengths(freq []int, limit int) []int {
	n := len(freq)
	w := make([]int, n)
	for i, f := range freq {
		w[i] = max(f, 1)
	}
	for {
		lens := bzip2Lengths(w)
		longest := 0
		for _, l := range lens {
			longest = max(longest, l)
		}
		if longest <= limit {
			return lens
		}
		for i := range w {
			w[i] = 1 + w[i]/2
		}
	}
}

// bzip2Lengths is plain Huffman: the depth of each leaf.
func bzip2Lengths(w []int) []int {
	type node struct{ weight, left, right int }
	nodes := make([]node, 0, 2*len(w))
	for _, x := range w {
		nodes = append(nodes, node{x, -1, -1})
	}
	live := make([]int, len(w))
	for i := range live {
		live[i] = i
	}
	for len(live) > 1 {
		sort.Slice(live, func(a, b int) bool { return nodes[live[a]].weight < nodes[live[b]].weight })
		a, b := live[0], live[1]
		nodes = append(nodes, node{nodes[a].weight + nodes[b].weight, a, b})
		live = append(live[2:], len(nodes)-1)
	}
	lens := make([]int, len(w))
	var walk func(i, d int)
	walk = func(i, d int) {
		if nodes[i].left < 0 {
			lens[i] = max(d, 1)
			return
		}
		walk(nodes[i].left, d+1)
		walk(nodes[i].right, d+1)
	}
	walk(live[0], 0)
	return lens
}
