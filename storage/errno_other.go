//go:build !windows

package storage

import (
	"errors"
	"syscall"
)

// isDiskFull reports a write that failed because the disk (or quota) is full.
func isDiskFull(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// isReadOnlyFS reports a write to a read-only file system.
func isReadOnlyFS(err error) bool { return errors.Is(err, syscall.EROFS) }
