//go:build !windows

package storage

import (
	"errors"
	"os"
	"syscall"
)

// isDiskFull reports a write that failed because the disk (or quota) is full.
func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// isReadOnlyFS reports a write to a read-only file system.
func isReadOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }

// fileOwner returns the uid that owns a file.
func fileOwner(st os.FileInfo) (int, bool) {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		return int(sys.Uid), true
	}
	return 0, false
}
