//go:build !linux || !(amd64 || arm64)

package faultaround

func enabled() bool { return false }

func stop([]span) (bool, error) { return false, nil }

func forgetFunctionTable([]span) {}

func readOnlyMappings() []span { return nil }

func resume(start, end uintptr) {}
