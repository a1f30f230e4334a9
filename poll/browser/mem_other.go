//go:build !linux

package browser

// treeRSS is not measured on this system: MaxRenders bounds the browser there.
func treeRSS(int) int64 { return 0 }
