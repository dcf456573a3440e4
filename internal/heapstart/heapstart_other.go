//go:build !linux

package heapstart

// FaultIn does nothing on this system.
func FaultIn(n uintptr) {}
