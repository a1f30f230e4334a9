package storage

import (
	"errors"
	"os"
	"syscall"
)

// Windows system error codes (winerror.h) for a full or write-protected disk;
// syscall.ENOSPC and EROFS never match them there.
const (
	errorWriteProtect   syscall.Errno = 19  // ERROR_WRITE_PROTECT
	errorHandleDiskFull syscall.Errno = 39  // ERROR_HANDLE_DISK_FULL
	errorDiskFull       syscall.Errno = 112 // ERROR_DISK_FULL
)

// isDiskFull reports a write that failed because the disk is full.
func isDiskFull(err error) bool {
	return errors.Is(err, errorDiskFull) || errors.Is(err, errorHandleDiskFull) || errors.Is(err, syscall.ENOSPC)
}

// isReadOnlyFS reports a write to a write-protected disk.
func isReadOnlyFS(err error) bool {
	return errors.Is(err, errorWriteProtect) || errors.Is(err, syscall.EROFS)
}

// fileOwner is unknown on Windows (ownership is an ACL, not a uid).
func fileOwner(os.FileInfo) (int, bool) { return 0, false }
