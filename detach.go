package main

import (
	"fmt"
	"os"
	"os/exec"
)

// startDetached starts this program again with args, on its own (it outlives
// this process), its output appended to logPath. exited receives how it ended
// if it ends while this process lives.
func startDetached(args []string, logPath string) (exited <-chan error, err error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("where this program is: %w", err)
	}
	out, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the log %s: %w", logPath, err)
	}
	defer out.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", exe, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // reaped if it ends while this process lives
	return done, nil
}
