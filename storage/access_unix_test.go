//go:build !windows

package storage

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// openAsOtherUserEnv makes TestHelperOpenAsOtherUser open the named data
// directory and print the error: the parent runs it as another user.
const openAsOtherUserEnv = "NOTIFIO_TEST_OPEN_DIR"

func TestHelperOpenAsOtherUser(t *testing.T) {
	dir := os.Getenv(openAsOtherUserEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	db, err := Open(dir, Options{})
	if err == nil {
		db.Close()
	}
	fmt.Printf("OPEN-ERROR: %v\n", err)
}

// Item 11: a database file the user may not open (folder writable, the file
// another user's, 0600) is named, with what is wrong with it, instead of "the
// data directory is not writable". As root, permissions do not bite: the open
// then runs in a copy of this test binary as the user nobody.
func TestUnreadableDatabaseNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	path := filepath.Join(dir, FileName)
	var msg string
	if os.Getuid() != 0 {
		if err := os.Chmod(path, 0); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir, Options{})
		msg = fmt.Sprint(err)
	} else {
		msg = openAsNobody(t, dir)
	}
	t.Log(msg)
	if !strings.Contains(msg, "may not open its database file") || !strings.Contains(msg, path) || strings.Contains(msg, "not writable") {
		t.Errorf("got %q; want the file named and what is wrong with it", msg)
	}
	if os.Getuid() == 0 && !strings.Contains(msg, "belongs to another user (uid 0)") {
		t.Errorf("got %q; want the owner named", msg)
	}
}

// openAsNobody opens dir from a copy of this test binary running as uid 65534,
// with the folder open to everyone and the file root's own, 0600.
func openAsNobody(t *testing.T, dir string) string {
	t.Helper()
	for _, d := range []string{dir, filepath.Dir(dir), filepath.Dir(filepath.Dir(dir))} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Skipf("running as root and cannot open %s to another user: %v", d, err)
		}
	}
	bin := filepath.Join(dir, "storage.test")
	if err := copyExecutable(os.Args[0], bin); err != nil {
		t.Skipf("running as root and cannot copy the test binary: %v", err)
	}
	defer os.Remove(bin)
	cmd := exec.Command(bin, "-test.run=^TestHelperOpenAsOtherUser$", "-test.v")
	cmd.Env = append(os.Environ(), openAsOtherUserEnv+"="+dir, "HOME="+dir)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if m, ok := strings.CutPrefix(line, "OPEN-ERROR: "); ok {
			return m
		}
	}
	t.Skipf("running as root and could not run the open as the user nobody: %v\n%s", err, out)
	return ""
}

func copyExecutable(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
