package faultaround

// parseMaps picks, from the text of /proc/self/maps, the private mappings
// of files (a path after the inode) that can be read and not written: lines
// like
//
//	00400000-014a0000 r-xp 00000000 fe:00 10528915   /usr/bin/gatehouse
//
// Anonymous mappings and the kernel's own ([stack], [vdso], [vvar]) are left
// out. The spans are appended to spans, up to its capacity; those of the file
// named exe are marked own.
func parseMaps(data, exe []byte, spans []span) []span {
	for len(data) > 0 && len(spans) < cap(spans) {
		line := data
		if i := indexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		var store [6][]byte
		fields := splitFields(line, store[:0])
		if len(fields) < 6 {
			continue
		}
		perms, path := fields[1], fields[5]
		if len(perms) < 4 || perms[0] != 'r' || perms[1] != '-' || perms[3] != 'p' || len(path) == 0 || path[0] != '/' {
			continue
		}
		start, end, ok := parseRange(fields[0])
		offset, ok2 := parseHex(fields[2])
		if !ok || !ok2 || end <= start {
			continue
		}
		own := exe != nil && string(path) == string(exe)
		spans = append(spans, span{start, end, uint64(offset), own})
	}
	return spans
}

// splitFields splits line at runs of spaces into at most cap(fields)
// fields, appended to fields, the last taking the rest of the line (a path
// may hold spaces).
func splitFields(line []byte, fields [][]byte) [][]byte {
	n := cap(fields)
	for len(line) > 0 && len(fields) < n-1 {
		for len(line) > 0 && line[0] == ' ' {
			line = line[1:]
		}
		i := indexByte(line, ' ')
		if i < 0 {
			if len(line) > 0 {
				fields = append(fields, line)
			}
			return fields
		}
		fields = append(fields, line[:i])
		line = line[i:]
	}
	for len(line) > 0 && line[0] == ' ' {
		line = line[1:]
	}
	if len(line) > 0 {
		fields = append(fields, line)
	}
	return fields
}

func parseRange(b []byte) (start, end uintptr, ok bool) {
	i := indexByte(b, '-')
	if i < 0 {
		return 0, 0, false
	}
	start, ok1 := parseHex(b[:i])
	end, ok2 := parseHex(b[i+1:])
	return start, end, ok1 && ok2
}

func parseHex(b []byte) (uintptr, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var v uintptr
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 | uintptr(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 | uintptr(c-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}
