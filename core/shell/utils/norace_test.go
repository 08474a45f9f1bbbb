//go:build !race

package utils

// raceDetector is true when the tests run under -race, which slows a
// pattern's steps some fifty times.
const raceDetector = false
