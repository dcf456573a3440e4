//go:build !linux

package heapstart
