//go:build linux

package faultaround

const sysUserfaultfd = 323
