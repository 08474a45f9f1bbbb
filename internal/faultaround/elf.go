package faultaround

// Fixed buffers for findSection: start-up must not allocate.
var (
	elfBuf   [64 * 64]byte // the section headers
	namesBuf [2048]byte    // the section names
)

// findSection finds the named section in a 64-bit little-endian ELF file
// whose header is header, reading the section headers and their names with
// read (into fixed buffers: no allocation). It returns the section's file
// offsets [from, to).
func findSection(header []byte, name string, read func(b []byte, off int64) bool) (from, to uint64, ok bool) {
	if len(header) < 64 || string(header[:4]) != "\x7fELF" || header[4] != 2 || header[5] != 1 {
		return 0, 0, false
	}
	shoff := u64(header[0x28:])
	entsize := int(u16(header[0x3a:]))
	count := int(u16(header[0x3c:]))
	namesIndex := int(u16(header[0x3e:]))
	if entsize != 64 || count == 0 || count*entsize > len(elfBuf) || namesIndex >= count {
		return 0, 0, false
	}
	headers := elfBuf[:count*entsize]
	if !read(headers, int64(shoff)) {
		return 0, 0, false
	}
	names := headers[namesIndex*entsize:]
	namesOff, namesSize := u64(names[0x18:]), u64(names[0x20:])
	if namesSize > uint64(len(namesBuf)) {
		return 0, 0, false
	}
	table := namesBuf[:namesSize]
	if !read(table, int64(namesOff)) {
		return 0, 0, false
	}
	for i := range count {
		h := headers[i*entsize:]
		at := int(u32(h))
		if at+len(name) < len(table) && string(table[at:at+len(name)]) == name && table[at+len(name)] == 0 {
			off, size := u64(h[0x18:]), u64(h[0x20:])
			return off, off + size, true
		}
	}
	return 0, 0, false
}

// Little-endian reads; encoding/binary would make this package wait for
// more packages' initialisers.
func u16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }

func u32(b []byte) uint32 { return uint32(u16(b)) | uint32(u16(b[2:]))<<16 }

func u64(b []byte) uint64 { return uint64(u32(b)) | uint64(u32(b[4:]))<<32 }
