package cli

import (
	"os"
	"syscall"
)

var attachConsole = syscall.NewLazyDLL("kernel32.dll").NewProc("AttachConsole")

// AttachConsole connects a windowed Windows build to the console it was started
// from, so `notifio.exe sites` prints in cmd or PowerShell. Output that is
// already redirected (a pipe or a file) is left alone.
func AttachConsole() {
	if h, err := syscall.GetStdHandle(syscall.STD_OUTPUT_HANDLE); err == nil && h != 0 && h != syscall.InvalidHandle {
		return
	}
	const attachParentProcess = ^uint32(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	if r, _, _ := attachConsole.Call(uintptr(attachParentProcess)); r == 0 {
		return
	}
	if f, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = f, f
	}
	if f, err := os.OpenFile("CONIN$", os.O_RDONLY, 0); err == nil {
		os.Stdin = f
	}
}
