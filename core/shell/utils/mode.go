package utils

import (
	"io/fs"
	"strings"
)

// File modes as chmod spells them (644, u+x, go-w,a+X), shared by mkdir
// -m, find -perm and chmod. Work is done in Unix bits (07777); the
// conversions map the set-id and sticky bits to Go's mode flags.

func unixBits(m fs.FileMode) uint32 {
	b := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		b |= 0o4000
	}
	if m&fs.ModeSetgid != 0 {
		b |= 0o2000
	}
	if m&fs.ModeSticky != 0 {
		b |= 0o1000
	}
	return b
}

func goMode(b uint32) fs.FileMode {
	m := fs.FileMode(b & 0o777)
	if b&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if b&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if b&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// applyModeSpec applies an octal or symbolic mode to base (Unix bits).
// Clauses without a "who" are limited by umask, as chmod does. ok is
// false for a malformed spec.
func applyModeSpec(spec string, base uint32, isDir bool, umask uint32) (uint32, bool) {
	if spec == "" {
		return 0, false
	}
	if spec[0] >= '0' && spec[0] <= '7' {
		var v uint32
		for _, c := range spec {
			if c < '0' || c > '7' {
				return 0, false
			}
			v = v*8 + uint32(c-'0')
			if v > 0o7777 {
				return 0, false
			}
		}
		return v, true
	}
	cur := base
	for _, clause := range strings.Split(spec, ",") {
		i := 0
		var who uint32
		for i < len(clause) && strings.IndexByte("ugoa", clause[i]) >= 0 {
			switch clause[i] {
			case 'u':
				who |= 0o4700
			case 'g':
				who |= 0o2070
			case 'o':
				who |= 0o1007
			case 'a':
				who |= 0o7777
			}
			i++
		}
		masked := who == 0
		if masked {
			who = 0o7777
		}
		if i >= len(clause) {
			return 0, false
		}
		for i < len(clause) {
			op := clause[i]
			if op != '+' && op != '-' && op != '=' {
				return 0, false
			}
			i++
			var perm uint32
			for i < len(clause) && strings.IndexByte("rwxXstugo", clause[i]) >= 0 {
				switch clause[i] {
				case 'r':
					perm |= 0o444
				case 'w':
					perm |= 0o222
				case 'x':
					perm |= 0o111
				case 'X':
					if isDir || cur&0o111 != 0 {
						perm |= 0o111
					}
				case 's':
					perm |= 0o6000
				case 't':
					perm |= 0o1000
				case 'u':
					perm |= copyClass((cur >> 6) & 7)
				case 'g':
					perm |= copyClass((cur >> 3) & 7)
				case 'o':
					perm |= copyClass(cur & 7)
				}
				i++
			}
			affected := perm & who
			if masked {
				affected &^= umask
			}
			switch op {
			case '+':
				cur |= affected
			case '-':
				cur &^= affected
			case '=':
				cur = cur&^who | affected
			}
		}
	}
	return cur, true
}

// copyClass spreads one rwx triple to all three classes (for u=g etc.).
func copyClass(rwx uint32) uint32 { return rwx<<6 | rwx<<3 | rwx }
