//go:build linux && (amd64 || arm64)

package faultaround

import "unsafe"

func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }
