//go:build linux

package faultaround

const sysUserfaultfd = 282
